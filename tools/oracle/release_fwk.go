//go:build k8s_1_34 || k8s_1_37

package main

// Shared by the releases whose plugin-facing types (Status, CycleState,
// NodeInfo) live in k8s.io/kube-scheduler/framework.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

type (
	statusT     = fwk.Status
	cycleStateT = fwk.CycleState
)

const (
	codeError        = fwk.Error
	codeUnresolvable = fwk.UnschedulableAndUnresolvable
)

func newStatus(code fwk.Code, msg string) *statusT { return fwk.NewStatus(code, msg) }
func isRejected(s *statusT) bool                   { return s.IsRejected() }
func pluginOf(s *statusT) string                   { return s.Plugin() }

func runPreScore(ctx context.Context, f framework.Framework, state cycleStateT, pod *v1.Pod, nodes []nodeInfoT) *statusT {
	return f.RunPreScorePlugins(ctx, state, pod, nodes)
}

func runPostFilter(ctx context.Context, f framework.Framework, state cycleStateT, pod *v1.Pod, statuses *nodeToStatusT) (string, *statusT) {
	r, s := f.RunPostFilterPlugins(ctx, state, pod, statuses)
	return nominatedNodeOf(r), s
}
