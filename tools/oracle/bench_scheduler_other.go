//go:build !k8s_1_37

package main

import (
	"errors"

	v1 "k8s.io/api/core/v1"
)

func benchScheduler(*cluster, []*v1.Pod, int32) (*benchResult, map[string]string, error) {
	return nil, nil, errors.New("bench --mode scheduler: built for 1.37 only (oracle --release 1.37.2)")
}
