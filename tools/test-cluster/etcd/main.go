// Command etcd is upstream etcd v3.6.16 built from the Go module proxy: the
// server module refuses `go install` (its go.mod has replace directives), so a
// module of our own requires it and hands the command line to its entry point.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
