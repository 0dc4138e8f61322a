//go:build k8s_1_26

package main

// API of the 1.26 line: every framework type lives in
// k8s.io/kubernetes/pkg/scheduler/framework, the scheduler cache is internal
// (not importable), and DefaultPreemption builds its evaluator inside PostFilter.

import (
	"context"
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

type (
	nodeInfoT   = *framework.NodeInfo
	statusT     = framework.Status
	cycleStateT = *framework.CycleState
)

const (
	codeError        = framework.Error
	codeUnresolvable = framework.UnschedulableAndUnresolvable
)

// nodeToStatusT gives 1.26's plain status map the methods the engine uses.
// In 1.26 a PreFilter rejection or a PreFilter node subset gives the other
// nodes no status at all, so SetAbsentNodesStatus does nothing.
type nodeToStatusT struct{ m framework.NodeToStatusMap }

func newNodeToStatus() *nodeToStatusT                    { return &nodeToStatusT{m: framework.NodeToStatusMap{}} }
func (n *nodeToStatusT) Set(name string, s *statusT)     { n.m[name] = s }
func (n *nodeToStatusT) Len() int                        { return len(n.m) }
func (n *nodeToStatusT) SetAbsentNodesStatus(*statusT)   {}
func newCycleState() cycleStateT                         { return framework.NewCycleState() }
func newStatus(code framework.Code, msg string) *statusT { return framework.NewStatus(code, msg) }
func isRejected(s *statusT) bool                         { return s.IsUnschedulable() }
func pluginOf(s *statusT) string                         { return s.FailedPlugin() }
func asyncPreemptionGate() string                        { return "SchedulerAsyncPreemption" }
func waitForPreemption(*engine, *v1.Pod)                 {}
func sortedPlugins(set sets.String) []string             { return set.List() }
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

func runPreFilter(ctx context.Context, f framework.Framework, state cycleStateT, pod *v1.Pod) (*framework.PreFilterResult, *statusT, []string) {
	r, s := f.RunPreFilterPlugins(ctx, state, pod)
	return r, s, nil
}

func nodesOf(list []nodeInfoT) []*v1.Node {
	out := make([]*v1.Node, len(list))
	for i, ni := range list {
		out[i] = ni.Node()
	}
	return out
}

func runPreScore(ctx context.Context, f framework.Framework, state cycleStateT, pod *v1.Pod, nodes []nodeInfoT) *statusT {
	return f.RunPreScorePlugins(ctx, state, pod, nodesOf(nodes))
}

func runScore(ctx context.Context, f framework.Framework, state cycleStateT, pod *v1.Pod, nodes []nodeInfoT) (map[string]int64, map[string]map[string]int64, error) {
	list, st := f.RunScorePlugins(ctx, state, pod, nodesOf(nodes))
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

func runPostFilter(ctx context.Context, f framework.Framework, state cycleStateT, pod *v1.Pod, statuses *nodeToStatusT) (string, *statusT) {
	r, s := f.RunPostFilterPlugins(ctx, state, pod, statuses.m)
	if r == nil || r.NominatingInfo == nil {
		return "", s
	}
	return r.NominatedNodeName, s
}

func fitErrorMessage(pod *v1.Pod, numNodes int, statuses *nodeToStatusT, preFilterMsg, postFilterMsg string) string {
	fe := &framework.FitError{Pod: pod, NumAllNodes: numNodes, Diagnosis: framework.Diagnosis{
		NodeToStatusMap: statuses.m, PreFilterMsg: preFilterMsg, PostFilterMsg: postFilterMsg}}
	return fe.Error()
}

// snapLister is the oracle's own snapshot (1.26's cache is internal):
// NodeInfos rebuilt before every attempt, listed in node-tree order.
type snapLister struct {
	list_   []nodeInfoT
	byName  map[string]nodeInfoT
	aff     []nodeInfoT
	antiAff []nodeInfoT
	pvcs    sets.String
	images  map[string]map[string]*framework.ImageStateSummary // node -> image states
}

func newSnapLister() *snapLister { return &snapLister{byName: map[string]nodeInfoT{}} }

// refresh rebuilds the NodeInfos. Image states follow 1.26's internal cache:
// nodes are added in items order, an image name keeps the size of the first
// node that reported it, and a node's NumNodes is the number of nodes that had
// the image when that node was added (the cache never recomputes it).
func (l *snapLister) refresh(items, order []*v1.Node, podsOn map[string][]*v1.Pod) {
	if l.images == nil {
		l.images = map[string]map[string]*framework.ImageStateSummary{}
		first := map[string]int64{}
		count := map[string]int{}
		for _, n := range items {
			sum := map[string]*framework.ImageStateSummary{}
			for _, img := range n.Status.Images {
				for _, name := range img.Names {
					if _, ok := first[name]; !ok {
						first[name] = img.SizeBytes
					}
					if _, ok := sum[name]; !ok {
						count[name]++
						sum[name] = &framework.ImageStateSummary{Size: first[name], NumNodes: count[name]}
					}
				}
			}
			l.images[n.Name] = sum
		}
	}
	l.list_, l.aff, l.antiAff = nil, nil, nil
	l.byName = map[string]nodeInfoT{}
	l.pvcs = sets.NewString()
	for _, n := range order {
		ni := framework.NewNodeInfo(podsOn[n.Name]...)
		ni.SetNode(n)
		ni.ImageStates = l.images[n.Name]
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
func (l *snapLister) list() []nodeInfoT  { return l.list_ }
func (l *snapLister) get(name string) nodeInfoT {
	return l.byName[name]
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

type emptyNominator struct{}

func (emptyNominator) AddNominatedPod(*framework.PodInfo, *framework.NominatingInfo) {}
func (emptyNominator) DeleteNominatedPodIfExists(*v1.Pod)                            {}
func (emptyNominator) UpdateNominatedPod(*v1.Pod, *framework.PodInfo)                {}
func (emptyNominator) NominatedPodsForNode(string) []*framework.PodInfo              { return nil }

// deterministicPreemption: 1.26 has no OrderedScoreFuncs, and its PostFilter
// builds an Evaluator around the plugin itself. This wrapper runs the same
// Evaluator with an Interface whose offset is 0 and whose victims map holds
// only the candidate the upstream criteria plus the smallest-name rule pick,
// so upstream's selection (over one node) cannot fall to map order.
type deterministicPreemption struct {
	*defaultpreemption.DefaultPreemption
	fh framework.Handle
}

type deterministicInterface struct {
	*defaultpreemption.DefaultPreemption
}

func (d deterministicInterface) GetOffsetAndNumCandidates(n int32) (int32, int32) {
	_, num := d.DefaultPreemption.GetOffsetAndNumCandidates(n)
	return 0, num
}

func (d deterministicInterface) CandidatesToVictimsMap(candidates []preemption.Candidate) map[string]*extenderv1.Victims {
	all := d.DefaultPreemption.CandidatesToVictimsMap(candidates)
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, f := range preemptionScoreFuncs(all) {
		best := int64(0)
		var keep []string
		for i, n := range names {
			if s := f(n); i == 0 || s > best {
				best, keep = s, []string{n}
			} else if s == best {
				keep = append(keep, n)
			}
		}
		names = keep
		if len(names) == 1 {
			break
		}
	}
	if len(names) == 0 {
		return all
	}
	return map[string]*extenderv1.Victims{names[0]: all[names[0]]}
}

func (d *deterministicPreemption) PostFilter(ctx context.Context, state *framework.CycleState, pod *v1.Pod, m framework.NodeToStatusMap) (*framework.PostFilterResult, *framework.Status) {
	pe := preemption.Evaluator{
		PluginName: defaultpreemption.Name,
		Handler:    d.fh,
		PodLister:  d.fh.SharedInformerFactory().Core().V1().Pods().Lister(),
		PdbLister:  d.fh.SharedInformerFactory().Policy().V1().PodDisruptionBudgets().Lister(),
		State:      state,
		Interface:  deterministicInterface{d.DefaultPreemption},
	}
	result, status := pe.Preempt(ctx, pod, m)
	if status.Message() != "" {
		return result, framework.NewStatus(status.Code(), "preemption: "+status.Message())
	}
	return result, status
}

func newFramework(ctx context.Context, cfg *config.KubeSchedulerConfiguration, rt *runtimeEnv) (framework.Framework, informers.SharedInformerFactory, error) {
	registry := plugins.NewInTreeRegistry()
	orig := registry[defaultpreemption.Name]
	registry[defaultpreemption.Name] = func(obj runtime.Object, fh framework.Handle) (framework.Plugin, error) {
		p, err := orig(obj, fh)
		if err != nil {
			return nil, err
		}
		return &deterministicPreemption{DefaultPreemption: p.(*defaultpreemption.DefaultPreemption), fh: fh}, nil
	}
	// 1.26 evicts through the API: the fake client records the victims.
	rt.cs.PrependReactor("delete", "pods", func(action k8stesting.Action) (bool, runtime.Object, error) {
		d := action.(k8stesting.DeleteAction)
		rt.mu.Lock()
		rt.victims = append(rt.victims, d.GetNamespace()+"/"+d.GetName())
		rt.mu.Unlock()
		return true, nil, nil
	})
	factory := informers.NewSharedInformerFactory(rt.cs, 0)
	f, err := frameworkruntime.NewFramework(registry, &cfg.Profiles[0], ctx.Done(),
		frameworkruntime.WithClientSet(rt.cs),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSnapshotSharedLister(rt.lister),
		frameworkruntime.WithPodNominator(emptyNominator{}),
		frameworkruntime.WithParallelism(1),
		frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
	)
	if err != nil {
		return nil, nil, err
	}
	return f, factory, nil
}
