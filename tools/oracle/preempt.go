package main

import (
	"math"
	"sort"
	"time"

	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
	"k8s.io/kubernetes/pkg/scheduler/util"
)

// preemptionScoreFuncs returns DefaultPreemption's node-selection criteria in
// their upstream order, followed by the replay rule for the tie upstream
// leaves to map order: the smallest node name.
func preemptionScoreFuncs(victims map[string]*extenderv1.Victims) []func(string) int64 {
	names := make([]string, 0, len(victims))
	for n := range victims {
		names = append(names, n)
	}
	sort.Strings(names)
	rank := map[string]int64{}
	for i, n := range names {
		rank[n] = int64(i)
	}
	return []func(string) int64{
		func(n string) int64 { return -victims[n].NumPDBViolations },
		func(n string) int64 { return -int64(corev1helpers.PodPriority(victims[n].Pods[0])) },
		func(n string) int64 {
			var sum int64
			for _, p := range victims[n].Pods {
				sum += int64(corev1helpers.PodPriority(p)) + int64(math.MaxInt32+1)
			}
			return -sum
		},
		func(n string) int64 { return -int64(len(victims[n].Pods)) },
		func(n string) int64 {
			t := util.GetEarliestPodStartTime(victims[n])
			if t == nil {
				return math.MinInt64
			}
			return t.UnixNano()
		},
		func(n string) int64 { return -rank[n] },
	}
}

func waitUntil(cond func() bool) {
	deadline := time.Now().Add(60 * time.Second)
	for !cond() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}
