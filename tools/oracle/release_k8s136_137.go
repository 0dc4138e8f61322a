//go:build k8s_1_36 || k8s_1_37

package main

// API shared by the 1.36 and 1.37 lines: most framework types live in
// k8s.io/kube-scheduler/framework, the cache serves pod groups, and preemption is
// actuated by a separate Executor. What differs between the two lines is in
// release_k8s136.go and release_k8s137.go.

import (
	"context"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
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
func nominatedNodeOf(r *fwk.PostFilterResult) string {
	if r == nil || r.NominatingInfo == nil {
		return ""
	}
	return r.NominatedNodeName
}

func runPreFilter(ctx context.Context, f framework.Framework, state fwk.CycleState, pod *v1.Pod) (*fwk.PreFilterResult, *fwk.Status, []string) {
	r, s, plugins := f.RunPreFilterPlugins(ctx, state, pod)
	return r, s, sortedPlugins(plugins)
}

func preFilterNodeNames(r *fwk.PreFilterResult) (map[string]bool, bool) {
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

// emptyNominator: in the replay a nominated pod is retried at once, so no
// pod is ever left nominated for another pod to see.
type emptyNominator struct{}

func (emptyNominator) AddNominatedPod(klog.Logger, fwk.PodInfo, *fwk.NominatingInfo) {}
func (emptyNominator) DeleteNominatedPodIfExists(*v1.Pod)                            {}
func (emptyNominator) UpdateNominatedPod(klog.Logger, *v1.Pod, fwk.PodInfo)          {}
func (emptyNominator) NominatedPodsForNode(string) []fwk.PodInfo                     { return nil }

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

var currentEvaluators []*preemption.Executor

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
	registry[defaultpreemption.Name] = func(ctx context.Context, obj runtime.Object, fh fwk.Handle) (fwk.Plugin, error) {
		p, err := orig(ctx, obj, fh)
		if err != nil {
			return nil, err
		}
		dp := p.(*defaultpreemption.DefaultPreemption)
		dp.Evaluator.Interface = deterministicPreemption{dp}
		captureEvictions(dp.Executor, rt)
		currentEvaluators = append(currentEvaluators, dp.Executor)
		return dp, nil
	}
	factory := informers.NewSharedInformerFactory(rt.cs, 0)
	opts := []frameworkruntime.Option{
		frameworkruntime.WithClientSet(rt.cs),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSnapshotSharedLister(rt.lister.snap),
		frameworkruntime.WithPodGroupManager(rt.lister.cache),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(factory.Storage().V1().CSINodes().Lister())),
		frameworkruntime.WithPodNominator(emptyNominator{}),
		frameworkruntime.WithParallelism(1),
		frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
	}
	opts = append(opts, releaseFrameworkOptions(rt)...)
	if utilfeature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		logger := klog.FromContext(ctx)
		claimCache := assumecache.NewAssumeCache(logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
		trackerOpts := resourceslicetracker.Options{
			SliceInformer: factory.Resource().V1().ResourceSlices(),
			KubeClient:    rt.cs,
		}
		withDeviceTaintRules(&trackerOpts, factory)
		tracker, err := resourceslicetracker.StartTracker(ctx, trackerOpts)
		if err != nil {
			return nil, nil, err
		}
		dm := dynamicresources.NewDRAManager(ctx, claimCache, tracker, factory)
		// kube-scheduler feeds DeviceClass events to the manager's extended-resource cache
		// (eventhandlers.go); without it no class would map an extended resource.
		if erCache, ok := dm.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache); ok && erCache != nil {
			reg, err := factory.Resource().V1().DeviceClasses().Informer().AddEventHandler(erCache)
			if err != nil {
				return nil, nil, err
			}
			draClassesSynced = reg.HasSynced
		}
		opts = append(opts, frameworkruntime.WithSharedDRAManager(dm))
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
