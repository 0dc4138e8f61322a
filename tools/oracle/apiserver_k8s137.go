//go:build k8s_1_37

package main

import (
	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/features"
)

func spreadSelectorMerge() bool {
	return utilfeature.DefaultFeatureGate.Enabled(features.MatchLabelKeysInPodTopologySpreadSelectorMerge)
}

// From 1.37 (PodLevelResourcesFixDefaulting) the pod-level requests are defaulted in
// PrepareForCreate (podutil.DefaultPodLevelResources, on the internal type), no longer in
// SetDefaults_Pod.
func defaultPodLevelResources(p *v1.Pod) {
	if p.Spec.Resources == nil {
		return
	}
	internal := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(p, internal, nil); err != nil {
		panic(err)
	}
	podutil.DefaultPodLevelResources(internal)
	out := &v1.Pod{}
	if err := legacyscheme.Scheme.Convert(internal, out, nil); err != nil {
		panic(err)
	}
	p.Spec.Resources = out.Spec.Resources
}
