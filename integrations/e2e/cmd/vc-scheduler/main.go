// Command vc-scheduler is Volcano v1.10.0's scheduler with specsched's
// "hopper" plug-in compiled in: importing the plug-in's package registers it
// (framework.RegisterPluginBuilder in its init), beside Volcano's own actions
// and plug-ins, so a volcano-scheduler.conf can name it like a built-in one.
//
// The flags are Volcano's (cmd/scheduler/app/options), among them
// --kubeconfig or --master, --scheduler-conf, --schedule-period,
// --scheduler-name, --default-queue and --leader-elect (on by default; pass
// --leader-elect=false for a single scheduler).
package main

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	cliflag "k8s.io/component-base/cli/flag"
	componentbaseoptions "k8s.io/component-base/config/options"
	"k8s.io/klog/v2"

	"volcano.sh/volcano/cmd/scheduler/app"
	"volcano.sh/volcano/cmd/scheduler/app/options"
	_ "volcano.sh/volcano/pkg/scheduler/actions" // Volcano's actions
	_ "volcano.sh/volcano/pkg/scheduler/plugins" // Volcano's plug-ins
	commonutil "volcano.sh/volcano/pkg/util"

	_ "github.com/specsched/specsched/integrations/volcano" // the "hopper" plug-in
)

func main() {
	klog.InitFlags(nil)
	defer klog.Flush()

	opt := options.NewServerOption()
	flags := pflag.CommandLine
	opt.AddFlags(flags)
	utilfeature.DefaultMutableFeatureGate.AddFlag(flags)
	commonutil.LeaderElectionDefault(&opt.LeaderElection)
	opt.LeaderElection.ResourceName = commonutil.GenerateComponentName(opt.SchedulerNames)
	componentbaseoptions.BindLeaderElectionFlags(&opt.LeaderElection, flags)
	opt.RegisterOptions()
	cliflag.InitFlags()

	if err := opt.CheckOptionOrDie(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := app.Run(opt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
