//go:build k8s_1_34 || k8s_1_36 || k8s_1_37

package main

// What kube-apiserver's pod strategy does at creation (PrepareForCreate) that the
// scheduler relies on, beyond v1 defaulting: matchLabelKeys/mismatchLabelKeys of pod
// (anti-)affinity terms and matchLabelKeys of spread constraints merged into their label
// selectors (mutatePodAffinity, mutateTopologySpreadConstraints in
// pkg/registry/core/pod/strategy.go, unexported there, so written out here), and, from
// 1.37 (PodLevelResourcesFixDefaulting), the pod-level requests defaulting.
// Every input pod was created through the API server, so every pod gets it.

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
)

func applyLabelKeys(sel *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator, podLabels map[string]string) {
	for _, key := range keys {
		if value, ok := podLabels[key]; ok {
			sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{Key: key, Operator: op, Values: []string{value}})
		}
	}
}

func applyAffinityLabelKeys(term *v1.PodAffinityTerm, podLabels map[string]string) {
	if (len(term.MatchLabelKeys) == 0 && len(term.MismatchLabelKeys) == 0) || term.LabelSelector == nil {
		return
	}
	applyLabelKeys(term.LabelSelector, term.MatchLabelKeys, metav1.LabelSelectorOpIn, podLabels)
	applyLabelKeys(term.LabelSelector, term.MismatchLabelKeys, metav1.LabelSelectorOpNotIn, podLabels)
}

func prepareForCreate(p *v1.Pod) {
	if utilfeature.DefaultFeatureGate.Enabled(features.MatchLabelKeysInPodAffinity) && p.Spec.Affinity != nil {
		if a := p.Spec.Affinity.PodAffinity; a != nil {
			for i := range a.PreferredDuringSchedulingIgnoredDuringExecution {
				applyAffinityLabelKeys(&a.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm, p.Labels)
			}
			for i := range a.RequiredDuringSchedulingIgnoredDuringExecution {
				applyAffinityLabelKeys(&a.RequiredDuringSchedulingIgnoredDuringExecution[i], p.Labels)
			}
		}
		if a := p.Spec.Affinity.PodAntiAffinity; a != nil {
			for i := range a.PreferredDuringSchedulingIgnoredDuringExecution {
				applyAffinityLabelKeys(&a.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm, p.Labels)
			}
			for i := range a.RequiredDuringSchedulingIgnoredDuringExecution {
				applyAffinityLabelKeys(&a.RequiredDuringSchedulingIgnoredDuringExecution[i], p.Labels)
			}
		}
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.MatchLabelKeysInPodTopologySpread) && spreadSelectorMerge() {
		for i := range p.Spec.TopologySpreadConstraints {
			c := &p.Spec.TopologySpreadConstraints[i]
			if len(c.MatchLabelKeys) > 0 && c.LabelSelector != nil {
				applyLabelKeys(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn, p.Labels)
			}
		}
	}
	defaultPodLevelResources(p)
}
