//go:build k8s_1_34

package main

// API of the 1.34 line: framework types in k8s.io/kubernetes/pkg/scheduler/framework
// with the plugin-facing ones (Status, CycleState, NodeInfo) in k8s.io/kube-scheduler.

import (
	"context"
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/events"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
)

type (
	nodeInfoT     = fwk.NodeInfo
	nodeToStatusT = framework.NodeToStatus
)

func newCycleState() fwk.CycleState   { return framework.NewCycleState() }
func newNodeToStatus() *nodeToStatusT { return framework.NewDefaultNodeToStatus() }
func nominatedNodeOf(r *framework.PostFilterResult) string {
	if r == nil || r.NominatingInfo == nil {
		return ""
	}
	return r.NominatedNodeName
}

func runPreFilter(ctx context.Context, f framework.Framework, state fwk.CycleState, pod *v1.Pod) (*framework.PreFilterResult, *fwk.Status, []string) {
	r, s, plugins := f.RunPreFilterPlugins(ctx, state, pod)
	return r, s, sortedPlugins(plugins)
}

func preFilterNodeNames(r *framework.PreFilterResult) (map[string]bool, bool) {
	if r.AllNodes() {
		return nil, false
	}
	out := map[string]bool{}
	for n := range r.NodeNames {
		out[n] = true
	}
	return out, true
}

func runScore(ctx context.Context, f framework.Framework, state fwk.CycleState, pod *v1.Pod, nodes []nodeInfoT) (map[string]int64, map[string]map[string]int64, error) {
	list, st := f.RunScorePlugins(ctx, state, pod, nodes)
	if !st.IsSuccess() {
		return nil, nil, st.AsError()
	}
	totals := map[string]int64{}
	per := map[string]map[string]int64{}
	for _, ns := range list {
		totals[ns.Name] = ns.TotalScore
		for _, ps := range ns.Scores {
			if per[ps.Name] == nil {
				per[ps.Name] = map[string]int64{}
			}
			per[ps.Name][ns.Name] = ps.Score
		}
	}
	return totals, per, nil
}

func fitErrorMessage(pod *v1.Pod, numNodes int, statuses *nodeToStatusT, preFilterMsg, postFilterMsg string) string {
	fe := &framework.FitError{Pod: pod, NumAllNodes: numNodes, Diagnosis: framework.Diagnosis{
		NodeToStatus: statuses, PreFilterMsg: preFilterMsg, PostFilterMsg: postFilterMsg}}
	return fe.Error()
}

// snapLister is the oracle's own snapshot: NodeInfos rebuilt before every
// attempt from the replay's cluster state, listed in node-tree order.
type snapLister struct {
	list_   []nodeInfoT
	byName  map[string]*framework.NodeInfo
	aff     []nodeInfoT
	antiAff []nodeInfoT
	pvcs    sets.Set[string]
}

func newSnapLister() *snapLister { return &snapLister{byName: map[string]*framework.NodeInfo{}} }

func (l *snapLister) refresh(order []*v1.Node, podsOn map[string][]*v1.Pod) {
	images := map[string]int{}
	for _, n := range order {
		seen := map[string]bool{}
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				if !seen[name] {
					seen[name] = true
					images[name]++
				}
			}
		}
	}
	l.list_, l.aff, l.antiAff = nil, nil, nil
	l.byName = map[string]*framework.NodeInfo{}
	l.pvcs = sets.New[string]()
	for _, n := range order {
		ni := framework.NewNodeInfo(podsOn[n.Name]...)
		ni.SetNode(n)
		ni.ImageStates = map[string]*fwk.ImageStateSummary{}
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				ni.ImageStates[name] = &fwk.ImageStateSummary{Size: img.SizeBytes, NumNodes: images[name]}
			}
		}
		for _, p := range podsOn[n.Name] {
			for _, vol := range p.Spec.Volumes {
				if vol.PersistentVolumeClaim != nil {
					l.pvcs.Insert(p.Namespace + "/" + vol.PersistentVolumeClaim.ClaimName)
				}
			}
		}
		l.byName[n.Name] = ni
		l.list_ = append(l.list_, ni)
		if len(ni.PodsWithAffinity) > 0 {
			l.aff = append(l.aff, ni)
		}
		if len(ni.PodsWithRequiredAntiAffinity) > 0 {
			l.antiAff = append(l.antiAff, ni)
		}
	}
}

func (l *snapLister) podAdded(*v1.Pod)   {}
func (l *snapLister) podRemoved(*v1.Pod) {}

func (l *snapLister) list() []nodeInfoT { return l.list_ }
func (l *snapLister) get(name string) nodeInfoT {
	if ni, ok := l.byName[name]; ok {
		return ni
	}
	return nil
}

func (l *snapLister) NodeInfos() framework.NodeInfoLister       { return l }
func (l *snapLister) StorageInfos() framework.StorageInfoLister { return l }
func (l *snapLister) List() ([]nodeInfoT, error)                { return l.list_, nil }
func (l *snapLister) HavePodsWithAffinityList() ([]nodeInfoT, error) {
	return l.aff, nil
}
func (l *snapLister) HavePodsWithRequiredAntiAffinityList() ([]nodeInfoT, error) {
	return l.antiAff, nil
}
func (l *snapLister) Get(name string) (nodeInfoT, error) {
	if ni, ok := l.byName[name]; ok {
		return ni, nil
	}
	return nil, fmt.Errorf("nodeinfo not found for node name %q", name)
}
func (l *snapLister) IsPVCUsedByPods(key string) bool { return l.pvcs.Has(key) }

// emptyNominator: in the replay a nominated pod is retried at once, so no
// pod is ever left nominated for another pod to see.
type emptyNominator struct{}

func (emptyNominator) AddNominatedPod(klog.Logger, fwk.PodInfo, *framework.NominatingInfo) {}
func (emptyNominator) DeleteNominatedPodIfExists(*v1.Pod)                                  {}
func (emptyNominator) UpdateNominatedPod(klog.Logger, *v1.Pod, fwk.PodInfo)                {}
func (emptyNominator) NominatedPodsForNode(string) []fwk.PodInfo                           { return nil }

// deterministicPreemption keeps DefaultPreemption's own steps and replaces
// its two random choices: the candidate offset (0) and the last tie among
// candidate nodes (smallest name).
type deterministicPreemption struct {
	*defaultpreemption.DefaultPreemption
}

func (d deterministicPreemption) GetOffsetAndNumCandidates(n int32) (int32, int32) {
	_, num := d.DefaultPreemption.GetOffsetAndNumCandidates(n)
	return 0, num
}

func (d deterministicPreemption) OrderedScoreFuncs(_ context.Context, victims map[string]*extenderv1.Victims) []func(string) int64 {
	return preemptionScoreFuncs(victims)
}

func asyncPreemptionGate() string { return string(features.SchedulerAsyncPreemption) }

func waitForPreemption(e *engine, pod *v1.Pod) {
	waitUntil(func() bool { return !e.rt.preempting(pod) })
}

var currentEvaluators []*preemption.Evaluator

func (rt *runtimeEnv) preempting(pod *v1.Pod) bool {
	for _, ev := range currentEvaluators {
		if ev.IsPodRunningPreemption(pod.UID) {
			return true
		}
	}
	return false
}

// newFramework builds the profile's framework from the in-tree registry with
// DefaultPreemption made deterministic and its evictions captured.
func newFramework(ctx context.Context, cfg *config.KubeSchedulerConfiguration, rt *runtimeEnv) (framework.Framework, informers.SharedInformerFactory, error) {
	registry := plugins.NewInTreeRegistry()
	orig := registry[defaultpreemption.Name]
	currentEvaluators = nil
	registry[defaultpreemption.Name] = func(ctx context.Context, obj runtime.Object, fh framework.Handle) (framework.Plugin, error) {
		p, err := orig(ctx, obj, fh)
		if err != nil {
			return nil, err
		}
		dp := p.(*defaultpreemption.DefaultPreemption)
		dp.Evaluator.Interface = deterministicPreemption{dp}
		dp.Evaluator.PreemptPod = func(_ context.Context, _ preemption.Candidate, _, victim *v1.Pod, _ string) error {
			rt.mu.Lock()
			rt.victims = append(rt.victims, podKey(victim))
			rt.mu.Unlock()
			return nil
		}
		currentEvaluators = append(currentEvaluators, dp.Evaluator)
		return dp, nil
	}
	factory := informers.NewSharedInformerFactory(rt.cs, 0)
	opts := []frameworkruntime.Option{
		frameworkruntime.WithClientSet(rt.cs),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSnapshotSharedLister(rt.lister),
		frameworkruntime.WithPodNominator(emptyNominator{}),
		frameworkruntime.WithParallelism(1),
		frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		logger := klog.FromContext(ctx)
		claimCache := assumecache.NewAssumeCache(logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
		tracker, err := resourceslicetracker.StartTracker(ctx, resourceslicetracker.Options{
			SliceInformer: factory.Resource().V1().ResourceSlices(),
			KubeClient:    rt.cs,
		})
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, frameworkruntime.WithSharedDRAManager(dynamicresources.NewDRAManager(ctx, claimCache, tracker, factory)))
	}
	f, err := frameworkruntime.NewFramework(ctx, registry, &cfg.Profiles[0], opts...)
	if err != nil {
		return nil, nil, err
	}
	return f, factory, nil
}

func sortedPlugins(set sets.Set[string]) []string {
	out := set.UnsortedList()
	sort.Strings(out)
	return out
}
