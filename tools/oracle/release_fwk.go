//go:build k8s_1_34 || k8s_1_36 || k8s_1_37

package main

// Shared by the releases whose plugin-facing types (Status, CycleState,
// NodeInfo) live in k8s.io/kube-scheduler/framework.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
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

// snapLister keeps the scheduler cache (node tree, image states, pod groups)
// up to date with the replay and refreshes the cache's snapshot before every
// attempt, as the scheduler does at the start of a cycle.
type snapLister struct {
	cache  internalcache.Cache
	snap   *internalcache.Snapshot
	inited bool
}

func newSnapLister() *snapLister {
	return &snapLister{snap: internalcache.NewEmptySnapshot(), cache: newSchedulerCache()}
}

// refresh: nodes enter the cache in items order (as an informer would list
// them), which also decides whose size an image shared by several nodes gets.
func (l *snapLister) refresh(items, order []*v1.Node, podsOn map[string][]*v1.Pod) {
	logger := klog.Background()
	if !l.inited {
		l.inited = true
		for _, n := range items {
			l.cache.AddNode(logger, n)
		}
		for _, n := range order {
			for _, p := range podsOn[n.Name] {
				if err := l.cache.AddPod(logger, p); err != nil {
					panic(err)
				}
			}
		}
	}
	if err := l.cache.UpdateSnapshot(logger, l.snap); err != nil {
		panic(err)
	}
}

func (l *snapLister) podAdded(p *v1.Pod) {
	if l.inited {
		if err := l.cache.AddPod(klog.Background(), p); err != nil {
			panic(err)
		}
	}
}

func (l *snapLister) podRemoved(p *v1.Pod) {
	if l.inited {
		if err := l.cache.RemovePod(klog.Background(), p); err != nil {
			panic(err)
		}
	}
}

func (l *snapLister) list() []nodeInfoT {
	out, _ := l.snap.NodeInfos().List()
	return out
}

func (l *snapLister) get(name string) nodeInfoT {
	ni, err := l.snap.NodeInfos().Get(name)
	if err != nil {
		return nil
	}
	return ni
}
