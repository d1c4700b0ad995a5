//go:build e2e

package e2e

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"
	vcclient "volcano.sh/apis/pkg/client/clientset/versioned"
)

// binDir holds the stack's binaries, built once by TestMain (or given with
// -e2e.bin / SPECSCHED_E2E_BIN, as .ci/run does after building them).
var binDir string

var binFlag = flag.String("e2e.bin", os.Getenv("SPECSCHED_E2E_BIN"),
	"directory with etcd, kube-apiserver, vc-scheduler and kwok already built; empty builds them into a temporary directory")

// crdDir is Volcano's CRDs in the module download (config/crd/volcano/bases).
var crdDir string

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	binDir = *binFlag
	if binDir == "" {
		dir, err := os.MkdirTemp("", "specsched-e2e-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		if err := buildStack(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		binDir = dir
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "volcano.sh/volcano").Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: locating volcano.sh/volcano's module download: %v\n", err)
		return 1
	}
	crdDir = filepath.Join(strings.TrimSpace(string(out)), "config", "crd", "volcano", "bases")
	return m.Run()
}

// buildStack builds the four binaries into dir: three from this module, KWOK
// from its own module (./kwok).
func buildStack(dir string) error {
	for _, b := range []struct{ wd, out, pkg string }{
		{".", dir, "./cmd/..."},
		{"kwok", filepath.Join(dir, "kwok"), "."},
	} {
		cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
		cmd.Dir = b.wd
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("e2e: go build %s in %s: %v", b.pkg, b.wd, err)
		}
	}
	return nil
}

// token is the bearer token of the stack's only user, in system:masters.
const token = "specsched-e2e"

// stack is one control plane on loopback: etcd, kube-apiserver and KWOK,
// started by newStack; the scheduler is started by startScheduler once the
// test has created its objects. Every process is stopped by its pid in
// t.Cleanup, whether the test passed or not.
type stack struct {
	t          testing.TB
	dir        string
	kubeconfig string
	cfg        *rest.Config
	kube       kubernetes.Interface
	vc         vcclient.Interface

	mu    sync.Mutex
	procs []*process
}

// process is one child process, its log in the stack's directory.
type process struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

// stackOptions shape the fake cluster.
type stackOptions struct {
	// podStages is KWOK's pod stages (YAML Stage documents); empty means
	// podStagesRun: pods become Running and stay so.
	podStages string
}

// newStack starts etcd, the API server (with Volcano's CRDs) and KWOK on free
// loopback ports in a temporary directory.
func newStack(t testing.TB, opts stackOptions) *stack {
	t.Helper()
	dir := t.TempDir()
	if keep := os.Getenv("SPECSCHED_E2E_LOGS"); keep != "" {
		// Kept for reading after the run: logs, confs, etcd's data.
		kept, err := os.MkdirTemp(keep, strings.ReplaceAll(t.Name(), "/", "_")+"-")
		if err != nil {
			t.Fatal(err)
		}
		dir = kept
	}
	s := &stack{t: t, dir: dir}
	t.Cleanup(s.stopAll)

	clientPort, peerPort := freePort(t), freePort(t)
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", clientPort)
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	s.start("etcd",
		"--name=e2e",
		"--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL,
		"--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=e2e="+peerURL,
		"--unsafe-no-fsync",
		"--log-level=warn",
	)

	keyFile := filepath.Join(dir, "sa.key")
	writeKey(t, keyFile)
	tokenFile := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokenFile, []byte(token+`,admin,admin,"system:masters"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	apiPort := freePort(t)
	s.start("kube-apiserver",
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", apiPort),
		"--cert-dir="+filepath.Join(dir, "certs"),
		"--token-auth-file="+tokenFile,
		"--authorization-mode=AlwaysAllow",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file="+keyFile,
		"--service-account-signing-key-file="+keyFile,
		// No controller-manager: TaintNodesByCondition would taint every
		// new node not-ready with nothing to clear it, and ServiceAccount
		// would wait for token controllers that are not there.
		"--disable-admission-plugins=TaintNodesByCondition,ServiceAccount",
		// One API server on loopback: no endpoints for the kubernetes
		// service to reconcile.
		"--endpoint-reconciler-type=none",
		"--enable-priority-and-fairness=false",
		"--v=0",
	)
	s.cfg = &rest.Config{
		Host:            fmt.Sprintf("https://127.0.0.1:%d", apiPort),
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{Insecure: true},
		QPS:             500,
		Burst:           1000,
	}
	s.kubeconfig = filepath.Join(dir, "kubeconfig")
	writeKubeconfig(t, s.kubeconfig, s.cfg.Host)
	s.kube = kubernetes.NewForConfigOrDie(s.cfg)
	s.vc = vcclient.NewForConfigOrDie(s.cfg)
	s.waitReady()
	s.installCRDs()

	stages := opts.podStages
	if stages == "" {
		stages = podStagesRun
	}
	kwokConf := filepath.Join(dir, "kwok.yaml")
	if err := os.WriteFile(kwokConf, []byte(stages), 0o600); err != nil {
		t.Fatal(err)
	}
	s.start("kwok",
		"--kubeconfig="+s.kubeconfig,
		"--config="+kwokConf,
		"--manage-all-nodes=true",
		fmt.Sprintf("--server-address=127.0.0.1:%d", freePort(t)),
	)
	return s
}

// start runs bin from binDir with args, its output in dir/name.log.
func (s *stack) start(name string, args ...string) *process {
	s.t.Helper()
	logPath := filepath.Join(s.dir, name+".log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, name), args...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own process group, so that stopping it stops nothing else.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		s.t.Fatalf("start %s: %v", name, err)
	}
	p := &process{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	s.mu.Lock()
	s.procs = append(s.procs, p)
	s.mu.Unlock()
	s.t.Logf("started %s, pid %d, log %s", name, cmd.Process.Pid, logPath)
	return p
}

// stop ends p by its pid: SIGTERM, then SIGKILL after 10 s.
func (p *process) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

// exited reports whether p has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// tail is the last n bytes of p's log.
func (p *process) tail(n int64) string {
	b, err := os.ReadFile(p.log)
	if err != nil {
		return err.Error()
	}
	if int64(len(b)) > n {
		b = b[int64(len(b))-n:]
	}
	return string(b)
}

// stopAll stops every process, the last started first; on failure it prints
// the end of each log.
func (s *stack) stopAll() {
	s.mu.Lock()
	procs := s.procs
	s.procs = nil
	s.mu.Unlock()
	for i := len(procs) - 1; i >= 0; i-- {
		p := procs[i]
		if s.t.Failed() {
			s.t.Logf("--- %s log (end):\n%s", p.name, p.tail(3000))
		}
		p.stop()
	}
}

// waitReady waits for the API server's /readyz.
func (s *stack) waitReady() {
	s.t.Helper()
	client, err := rest.HTTPClientFor(s.cfg)
	if err != nil {
		s.t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 90*time.Second, true,
		func(ctx context.Context) (bool, error) {
			resp, err := client.Get(s.cfg.Host + "/readyz")
			if err != nil {
				return false, nil
			}
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK, nil
		})
	if err != nil {
		s.t.Fatalf("kube-apiserver not ready: %v", err)
	}
}

// installCRDs creates Volcano's CRDs and waits until they are served.
func (s *stack) installCRDs() {
	s.t.Helper()
	files, err := filepath.Glob(filepath.Join(crdDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		s.t.Fatalf("no Volcano CRDs in %s: %v", crdDir, err)
	}
	client := apiextensions.NewForConfigOrDie(s.cfg)
	ctx := context.Background()
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			s.t.Fatal(err)
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(b, &crd); err != nil {
			s.t.Fatalf("%s: %v", f, err)
		}
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, &crd, metav1.CreateOptions{}); err != nil {
			s.t.Fatalf("create CRD %s: %v", crd.Name, err)
		}
		names = append(names, crd.Name)
	}
	for _, name := range names {
		err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true,
			func(ctx context.Context) (bool, error) {
				crd, err := client.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				for _, c := range crd.Status.Conditions {
					if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
						return true, nil
					}
				}
				return false, nil
			})
		if err != nil {
			s.t.Fatalf("CRD %s not established: %v", name, err)
		}
	}
}

// startScheduler writes conf and starts our vc-scheduler with it, one
// scheduling session every period; extra flags follow the suite's.
func (s *stack) startScheduler(conf string, period time.Duration, extra ...string) *process {
	s.t.Helper()
	// A directory of its own: Volcano watches the conf's directory and
	// reloads on every write in it, so beside the logs it would reload
	// (and log that it did) in a loop.
	confDir := filepath.Join(s.dir, "scheduler-conf")
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	confPath := filepath.Join(confDir, "volcano-scheduler.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		s.t.Fatal(err)
	}
	args := []string{
		"--kubeconfig=" + s.kubeconfig,
		"--scheduler-conf=" + confPath,
		"--schedule-period=" + period.String(),
		"--leader-elect=false",
		fmt.Sprintf("--listen-address=127.0.0.1:%d", freePort(s.t)),
		fmt.Sprintf("--healthz-address=127.0.0.1:%d", freePort(s.t)),
		"--cache-dumper=false",
		"--kube-api-qps=500",
		"--kube-api-burst=1000",
		"--v=" + schedulerVerbosity(),
	}
	return s.start("vc-scheduler", append(args, extra...)...)
}

// schedulerVerbosity is vc-scheduler's klog level: SPECSCHED_E2E_SCHED_V, or
// 2 (its sessions' start and end, no per-task lines).
func schedulerVerbosity() string {
	if v := os.Getenv("SPECSCHED_E2E_SCHED_V"); v != "" {
		return v
	}
	return "2"
}

// addNodes creates n KWOK nodes named prefix-i, each with cpus CPUs (a pod of
// this suite asks for one) and room for 110 pods, and waits until KWOK has
// made them Ready.
func (s *stack) addNodes(prefix string, n, cpus int) {
	s.t.Helper()
	ctx := context.Background()
	for i := range n {
		capacity := corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewQuantity(int64(cpus), resource.DecimalSI),
			corev1.ResourceMemory: resource.MustParse("64Gi"),
			corev1.ResourcePods:   resource.MustParse("110"),
		}
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name:        fmt.Sprintf("%s-%d", prefix, i),
				Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
				Labels:      map[string]string{"type": "kwok"},
			},
			Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity},
		}
		if _, err := s.kube.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			s.t.Fatalf("create node: %v", err)
		}
	}
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 60*time.Second, true,
		func(ctx context.Context) (bool, error) {
			nodes, err := s.kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, nil
			}
			ready := 0
			for _, node := range nodes.Items {
				for _, c := range node.Status.Conditions {
					if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
						ready++
					}
				}
			}
			return ready >= n, nil
		})
	if err != nil {
		s.t.Fatalf("KWOK nodes not Ready: %v", err)
	}
}

// freePort is a TCP port free on 127.0.0.1 when asked.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// writeKey writes a fresh RSA key for the API server's service-account
// tokens (it takes the private key as both key files).
func writeKey(t testing.TB, path string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	block := &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeKubeconfig writes a kubeconfig for the stack's user, for the scheduler
// and KWOK.
func writeKubeconfig(t testing.TB, path, host string) {
	t.Helper()
	conf := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: %s
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: %s
contexts:
- name: e2e
  context:
    cluster: e2e
    user: admin
current-context: e2e
`, host, token)
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
}
