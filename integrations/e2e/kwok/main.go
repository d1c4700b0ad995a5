// Command kwok is KWOK v0.6.1's controller (sigs.k8s.io/kwok), which fakes
// nodes and pod lifecycles against an API server. It is a module of its own
// because KWOK wants k8s.io v0.30.4 and grpc v1.64 while Volcano's replace
// block, which the rest of the end-to-end stack needs, pins v0.30.2 and grpc
// v1.57. Its flags are KWOK's own.
package main

import (
	"os"

	"github.com/spf13/pflag"

	"sigs.k8s.io/kwok/pkg/config"
	"sigs.k8s.io/kwok/pkg/kwok/cmd"
	"sigs.k8s.io/kwok/pkg/log"
	"sigs.k8s.io/kwok/pkg/utils/signals"
)

func main() {
	flags := pflag.NewFlagSet("global", pflag.ContinueOnError)
	flags.ParseErrorsWhitelist.UnknownFlags = true
	flags.Usage = func() {}

	ctx := signals.SetupSignalContext()
	ctx, logger := log.InitFlags(ctx, flags)
	ctx, err := config.InitFlags(ctx, flags)
	if err != nil {
		logger.Error("kwok: config flags", err)
		os.Exit(1)
	}
	command := cmd.NewCommand(ctx)
	command.PersistentFlags().AddFlagSet(flags)
	if err := command.ExecuteContext(ctx); err != nil {
		logger.Error("kwok", err)
		os.Exit(1)
	}
}
