//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The stack's figures, measured with
//
//	go test -tags e2e -run '^$' -bench . -benchtime 1x
//
// (each benchmark starts its own stack; run them one at a time, on an idle
// machine if the figures are to be compared). They report, besides the
// benchmark's own time:
//
//   - pods-bound: pods bound once the bindings stop (the room is
//     min(pods, nodes × CPUs); hopper may bind fewer, see settle's comment
//     below), and pods/s: those per second, from the scheduler's start
//     (every pod already created and pending) to the last binding the
//     informer sees;
//   - hopper-open-ms: the mean time of hopper's OnSessionOpen per session,
//     and session-ms the mean whole session, from Volcano's metrics
//     (volcano_plugin_scheduling_latency_milliseconds,
//     volcano_e2e_scheduling_latency_milliseconds), over the sessions of the
//     run;
//   - <process>-MB: each process's peak resident memory (VmHWM).
func BenchmarkBind(b *testing.B) {
	for _, bc := range []struct {
		name               string
		conf               string
		jobs, podsPerJob   int
		nodes, cpusPerNode int
	}{
		// 1 000 pods, all of them bound: 100 jobs of 10 on 100 nodes of 10.
		{"pods=1000/hopper", hopperConf(0.1, 1.5), 100, 10, 100, 10},
		{"pods=1000/default", defaultConf, 100, 10, 100, 10},
		// 10 000 pods on room for 1 000: 9 000 stay pending, and every
		// session takes all of them in.
		{"pods=10000/hopper", hopperConf(0.1, 1.5), 1000, 10, 100, 10},
		{"pods=10000/default", defaultConf, 1000, 10, 100, 10},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				benchmarkBind(b, bc.conf, bc.jobs, bc.podsPerJob, bc.nodes, bc.cpusPerNode)
			}
		})
	}
}

func benchmarkBind(b *testing.B, conf string, jobs, podsPerJob, nodes, cpusPerNode int) {
	b.StopTimer()
	s := newStack(b, stackOptions{})
	s.addNodes("node", nodes, cpusPerNode)
	ctx := context.Background()
	for j := range jobs {
		group := fmt.Sprintf("j%04d", j)
		s.createPodGroup(group, 1, nil)
		for i := range podsPerJob {
			if err := s.createPod(ctx, podSpec{group: group, name: fmt.Sprintf("%s-t%d", group, i)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	w := s.watchPods()
	metricsPort := freePort(b)
	b.StartTimer()
	start := time.Now()
	s.startScheduler(conf, sessionPeriod, "--enable-metrics", fmt.Sprintf("--listen-address=127.0.0.1:%d", metricsPort))
	// Until the bindings stop: 5 s (25 sessions) without a new one. hopper
	// may leave slots idle (a job's target above its pods), so the count
	// need not reach the room there is.
	s.settle(w, 1, 5*time.Second, 10*time.Minute)
	b.StopTimer()
	var last time.Time
	bound := 0
	for _, r := range w.records() {
		if !r.bound.IsZero() {
			bound++
			if r.bound.After(last) {
				last = r.bound
			}
		}
	}
	b.ReportMetric(float64(bound), "pods-bound")
	b.ReportMetric(float64(bound)/last.Sub(start).Seconds(), "pods/s")
	metrics := scrape(b, metricsPort)
	if n := metrics[`volcano_plugin_scheduling_latency_milliseconds_count{OnSession="OnSessionOpen",plugin="hopper"}`]; n > 0 {
		b.ReportMetric(metrics[`volcano_plugin_scheduling_latency_milliseconds_sum{OnSession="OnSessionOpen",plugin="hopper"}`]/n, "hopper-open-ms")
	}
	if n := metrics["volcano_e2e_scheduling_latency_milliseconds_count"]; n > 0 {
		b.ReportMetric(metrics["volcano_e2e_scheduling_latency_milliseconds_sum"]/n, "session-ms")
	}
	s.mu.Lock()
	procs := append([]*process(nil), s.procs...)
	s.mu.Unlock()
	for _, p := range procs {
		if mb, ok := peakRSS(p); ok {
			b.ReportMetric(mb, p.name+"-MB")
		}
	}
}

// scrape reads the scheduler's Prometheus metrics into name{labels} → value.
func scrape(b *testing.B, port int) map[string]float64 {
	b.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		b.Logf("scheduler metrics: %v", err)
		return nil
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		out[line[:i]] = v
	}
	return out
}

// peakRSS is p's peak resident set (VmHWM) in MB, while it runs.
func peakRSS(p *process) (float64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fields := strings.Fields(rest)
			if len(fields) == 2 && fields[1] == "kB" {
				kb, err := strconv.ParseFloat(fields[0], 64)
				return kb / 1024, err == nil
			}
		}
	}
	return 0, false
}
