//go:build k8s_1_36

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// The 1.36 line: no mutable snapshot, and the executor's PreemptPod returns only an error.

func newSchedulerCache() internalcache.Cache {
	return internalcache.New(context.Background(), nil, false)
}

func captureEvictions(ex *preemption.Executor, rt *runtimeEnv) {
	ex.PreemptPod = func(_ context.Context, _ preemption.Candidate, _ preemption.ExecutorPreemptor, victim *v1.Pod, _ string) error {
		rt.recordVictim(victim)
		return nil
	}
}

func releaseFrameworkOptions(*runtimeEnv) []frameworkruntime.Option { return nil }
