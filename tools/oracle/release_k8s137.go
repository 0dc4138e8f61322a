//go:build k8s_1_37

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// The 1.37 line: the scheduler cache takes one more flag, the snapshot must also be
// a mutable snapshot, and the executor's PreemptPod reports whether it deferred.

func newSchedulerCache() internalcache.Cache {
	return internalcache.New(context.Background(), nil, false, false)
}

func captureEvictions(ex *preemption.Executor, rt *runtimeEnv) {
	ex.PreemptPod = func(_ context.Context, _ preemption.Candidate, _ preemption.ExecutorPreemptor, victim *v1.Pod, _ string) (bool, error) {
		rt.recordVictim(victim)
		return false, nil
	}
}

func releaseFrameworkOptions(rt *runtimeEnv) []frameworkruntime.Option {
	return []frameworkruntime.Option{frameworkruntime.WithMutableSnapshotLister(rt.lister.snap)}
}
