//go:build k8s_1_26

package main

import v1 "k8s.io/api/core/v1"

// 1.26's default profile has no PreEnqueue plugin (PodSchedulingReadiness is off).
func (e *engine) preEnqueue(*v1.Pod) (string, bool) { return "", false }
