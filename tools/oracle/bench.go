package main

import (
	"fmt"
	"os"
)

// runBench is the `oracle bench` subcommand: it times upstream scheduling a
// whole dump (see docs/benchmarks.md).
func runBench(args []string) {
	fmt.Fprintln(os.Stderr, "oracle bench: not built yet")
	os.Exit(2)
}
