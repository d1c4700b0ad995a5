// Command kube-apiserver is Kubernetes v1.30.2's API server
// (k8s.io/kubernetes/cmd/kube-apiserver/app), built from this module for the
// end-to-end stack. Its flags are the API server's own.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
