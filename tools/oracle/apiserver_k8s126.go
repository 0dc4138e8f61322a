//go:build k8s_1_26

package main

import v1 "k8s.io/api/core/v1"

// 1.26 has neither MatchLabelKeysInPodAffinity nor pod-level resources.
func prepareForCreate(*v1.Pod) {}
