//go:build k8s_1_34 || k8s_1_36

package main

import (
	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
)

func spreadSelectorMerge() bool {
	return utilfeature.DefaultFeatureGate.Enabled(features.MatchLabelKeysInPodTopologySpreadSelectorMerge)
}

// Before 1.37 the pod-level requests are defaulted by the v1 defaulting (SetDefaults_Pod).
func defaultPodLevelResources(*v1.Pod) {}
