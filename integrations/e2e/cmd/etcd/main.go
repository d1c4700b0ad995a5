// Command etcd is etcd v3.5.10's server (go.etcd.io/etcd/server/v3), built
// from this module so the end-to-end stack needs nothing but the Go module
// proxy. Its flags are etcd's own.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
