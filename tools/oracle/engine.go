package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// engine replays pending pods one at a time against the upstream framework,
// with the deterministic rules of the conformance README: sequential filters
// from a start index, lowest-name tie-break, immediate binding.
type engine struct {
	ctx        context.Context
	fw         framework.Framework
	rt         *runtimeEnv
	items      []*v1.Node // items order
	order      []*v1.Node // node tree order
	podsOn     map[string][]*v1.Pod
	percentage *int32 // nil: use the global value
	globalPct  int32
	start      int
	preemption bool
}

type attempt struct {
	state         cycleStateT
	feasible      []string
	scores        map[string]int64
	pluginScores  map[string]map[string]int64
	maxScoreNodes []string
	node          string
	filterReasons map[string][]string
	filterPlugin  map[string]string
	statuses      *nodeToStatusT
	preFilterMsg  string
	message       string
	// scale bookkeeping
	startIndex, count, next int
	first, last             string
	searched                bool
}

func (e *engine) nodeNames() []string {
	out := make([]string, len(e.order))
	for i, n := range e.order {
		out[i] = n.Name
	}
	return out
}

func (e *engine) refresh() { e.rt.lister.refresh(e.items, e.order, e.podsOn) }

func (e *engine) bind(pod *v1.Pod, node string) {
	pod.Spec.NodeName = node
	e.podsOn[node] = append(e.podsOn[node], pod)
	e.rt.lister.podAdded(pod)
}

func (e *engine) findPod(key string) *v1.Pod {
	for _, list := range e.podsOn {
		for _, p := range list {
			if podKey(p) == key {
				return p
			}
		}
	}
	return nil
}

func (e *engine) remove(pod *v1.Pod) {
	list := e.podsOn[pod.Spec.NodeName]
	for i, p := range list {
		if p.UID == pod.UID {
			e.podsOn[pod.Spec.NodeName] = append(list[:i:i], list[i+1:]...)
			e.rt.lister.podRemoved(pod)
			return
		}
	}
}

// numFeasibleNodesToFind mirrors the adaptive search size of the scheduler.
func (e *engine) numFeasibleNodesToFind(n int) int {
	if n < 100 {
		return n
	}
	pct := e.globalPct
	if e.percentage != nil {
		pct = *e.percentage
	}
	if pct == 0 {
		pct = 50 - int32(n)/125
		if pct < 5 {
			pct = 5
		}
	}
	num := n * int(pct) / 100
	if num < 100 {
		return 100
	}
	return num
}

// schedule runs one scheduling attempt (PreFilter, Filter, PreScore, Score).
func (e *engine) schedule(pod *v1.Pod) (*attempt, error) {
	e.refresh()
	ctx := e.ctx
	a := &attempt{state: newCycleState(), statuses: newNodeToStatus(), filterReasons: map[string][]string{}, filterPlugin: map[string]string{},
		scores: map[string]int64{}, pluginScores: map[string]map[string]int64{}, startIndex: e.start, next: e.start}
	all := e.rt.lister.list()
	// Equal-capacity PVs are told apart only while Filter picks them.
	e.rt.volumes.perturb(true)
	defer e.rt.volumes.perturb(false)
	preRes, s, prePlugins := runPreFilter(ctx, e.fw, a.state, pod)
	if !s.IsSuccess() {
		if !isRejected(s) {
			return nil, s.AsError()
		}
		a.statuses.SetAbsentNodesStatus(s)
		a.preFilterMsg = s.Message()
		return a, nil
	}
	record := func(name string, st *statusT) {
		a.statuses.Set(name, st)
		a.filterReasons[name] = st.Reasons()
		a.filterPlugin[name] = pluginOf(st)
	}
	var feasible []nodeInfoT
	if nn := pod.Status.NominatedNodeName; nn != "" {
		if ni := e.rt.lister.get(nn); ni != nil {
			st := e.fw.RunFilterPluginsWithNominatedPods(ctx, a.state, pod, ni)
			if st.Code() == codeError {
				return nil, st.AsError()
			}
			if st.IsSuccess() {
				feasible = []nodeInfoT{ni}
			} else {
				record(nn, st)
			}
		}
	}
	if feasible == nil {
		nodes := all
		if names, restricted := preFilterNodeNames(preRes); restricted {
			nodes = nil
			for _, ni := range all {
				if names[ni.Node().Name] {
					nodes = append(nodes, ni)
				}
			}
			a.statuses.SetAbsentNodesStatus(newStatus(codeUnresolvable, fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", prePlugins)))
		}
		numToFind := e.numFeasibleNodesToFind(len(nodes))
		if !e.fw.HasScorePlugins() {
			numToFind = 1
		}
		a.searched = true
		for i := 0; i < len(nodes); i++ {
			ni := nodes[(e.start+i)%len(nodes)]
			st := e.fw.RunFilterPluginsWithNominatedPods(ctx, a.state, pod, ni)
			if st.Code() == codeError {
				return nil, st.AsError()
			}
			if a.first == "" {
				a.first = ni.Node().Name
			}
			if st.IsSuccess() {
				if len(feasible) == numToFind {
					break // one more feasible node: neither kept nor counted
				}
				feasible = append(feasible, ni)
			} else {
				record(ni.Node().Name, st)
			}
			a.last = ni.Node().Name
		}
		a.count = len(feasible) + a.statuses.Len()
		if len(all) > 0 {
			e.start = (e.start + a.count) % len(all)
		}
		a.next = e.start
	}
	e.rt.volumes.perturb(false)
	for _, ni := range feasible {
		a.feasible = append(a.feasible, ni.Node().Name)
	}
	sort.Strings(a.feasible)
	if len(feasible) == 0 {
		return a, nil
	}
	// PreScore and Score over the feasible nodes (also with one node, for information).
	if st := runPreScore(ctx, e.fw, a.state, pod, feasible); !st.IsSuccess() {
		return nil, st.AsError()
	}
	totals, perPlugin, err := runScore(ctx, e.fw, a.state, pod, feasible)
	if err != nil {
		return nil, err
	}
	a.scores = totals
	a.pluginScores = perPlugin
	best := int64(-1 << 62)
	for _, n := range a.feasible {
		if totals[n] > best {
			best = totals[n]
		}
	}
	for _, n := range a.feasible {
		if totals[n] == best {
			a.maxScoreNodes = append(a.maxScoreNodes, n)
		}
	}
	if len(feasible) == 1 {
		a.node = feasible[0].Node().Name
	} else {
		a.node = a.maxScoreNodes[0]
	}
	return a, nil
}

func (e *engine) fitError(pod *v1.Pod, a *attempt, postFilterMsg string) string {
	return fitErrorMessage(pod, len(e.order), a.statuses, a.preFilterMsg, postFilterMsg)
}

// podResult is the outcome of one pending pod in the replay.
type podResult struct {
	pod       *v1.Pod
	final     *attempt
	first     *attempt // failed attempt before preemption
	nominated string
	victims   []string
	attempts  int
	volumes   *volumeRecord
	claims    map[string][]string // DRA: the pod's allocated claims after PreBind
}

// replayPod schedules one pending pod: an attempt, PostFilter when it fails,
// one retry after a successful preemption, then Reserve/PreBind and binding.
func (e *engine) replayPod(pod *v1.Pod, k int) (*podResult, error) {
	res := &podResult{pod: pod, attempts: 1}
	if msg, gated := e.preEnqueue(pod); gated {
		// Held by PreEnqueue: never attempted, nothing changes in the cluster.
		res.attempts = 0
		res.final = &attempt{scores: map[string]int64{}, pluginScores: map[string]map[string]int64{}, message: msg}
		return res, nil
	}
	a, err := e.schedule(pod)
	if err != nil {
		return nil, err
	}
	res.final = a
	if a.node == "" {
		msg := ""
		if e.preemption && e.fw.HasPostFilterPlugins() {
			e.rt.victims = nil
			// As schedule_one.go does, an Error from PostFilter is not fatal:
			// its message becomes the FitError's PostFilter part.
			nominated, st := runPostFilter(e.ctx, e.fw, a.state, pod, a.statuses)
			waitForPreemption(e, pod)
			waitForClaimWrites(e.fw, e.rt)
			msg = st.Message()
			if st.IsSuccess() && nominated != "" {
				a.message = e.fitError(pod, a, msg)
				res.first = a
				res.nominated = nominated
				for _, key := range e.rt.victims {
					res.victims = append(res.victims, key)
					if v := e.findPod(key); v != nil {
						e.remove(v)
					}
				}
				sort.Strings(res.victims)
				pod.Status.NominatedNodeName = nominated
				res.attempts = 2
				a, err = e.schedule(pod)
				if err != nil {
					return nil, err
				}
				res.final = a
				msg = ""
			}
		}
		if a.node == "" {
			a.message = e.fitError(pod, a, msg)
			return res, nil
		}
	}
	pod.Spec.NodeName = a.node // the assumed pod
	// Reserve, then the PreBind writes (VolumeBinding) with their completion.
	if st := e.fw.RunReservePluginsReserve(e.ctx, a.state, pod, a.node); !st.IsSuccess() {
		return nil, fmt.Errorf("reserve %s on %s: %v", podKey(pod), a.node, st.AsError())
	}
	if podHasClaims(pod) || requestsDRAExtendedResource(pod) {
		e.rt.volumes.begin(a.node)
		st := e.fw.RunPreBindPlugins(e.ctx, a.state, pod, a.node)
		res.volumes = e.rt.volumes.end()
		if !st.IsSuccess() {
			return nil, fmt.Errorf("prebind %s on %s: %v", podKey(pod), a.node, st.AsError())
		}
	}
	res.claims = e.rt.draClaims(pod)
	pod.Status.StartTime = &metav1.Time{Time: epoch.Add(time.Duration(k) * time.Second)}
	e.bind(pod, a.node)
	return res, nil
}

func podHasClaims(pod *v1.Pod) bool {
	if len(pod.Spec.ResourceClaims) > 0 {
		return true
	}
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			return true
		}
	}
	return false
}

func attemptFields(o *ordered, a *attempt, withMax bool) {
	feasible := a.feasible
	if feasible == nil {
		feasible = []string{}
	}
	o.set("feasible", feasible)
	o.set("scores", a.scores)
	o.set("pluginScores", a.pluginScores)
	if withMax && a.node != "" {
		o.set("maxScoreNodes", a.maxScoreNodes)
	}
	if len(a.filterReasons) > 0 {
		o.set("filterReasons", a.filterReasons)
		o.set("filterPlugin", a.filterPlugin)
	}
}

// resultJSON renders a result like the shared golden files.
func (r *podResult) json(scale bool) *ordered {
	o := newOrdered()
	o.set("pod", podKey(r.pod))
	o.set("priority", priorityOf(r.pod))
	a := r.final
	if a.node == "" {
		o.set("node", nil)
	} else {
		o.set("node", a.node)
	}
	if scale {
		o.set("scores", a.scores)
		if a.node != "" {
			o.set("maxScoreNodes", a.maxScoreNodes)
		}
		if a.node == "" {
			o.set("message", a.message)
		}
	} else {
		attemptFields(o, a, true)
		if a.node == "" {
			o.set("message", a.message)
		}
	}
	if r.nominated != "" {
		o.set("nominatedNode", r.nominated)
		o.set("victims", r.victims)
		f := newOrdered()
		attemptFields(f, r.first, false)
		f.set("message", r.first.message)
		o.set("firstAttempt", f)
	}
	o.set("attempts", r.attempts)
	if scale {
		ev := newOrdered()
		ev.set("startIndex", a.startIndex)
		ev.set("count", a.count)
		if a.first != "" {
			ev.set("first", a.first)
			ev.set("last", a.last)
		} else {
			ev.set("first", nil)
			ev.set("last", nil)
		}
		ev.set("nextStartIndex", a.next)
		o.set("evaluated", ev)
		failed := map[string][]string{}
		for _, n := range sortedKeys(a.filterReasons) {
			k := a.filterPlugin[n] + ": " + strings.Join(a.filterReasons[n], ", ")
			failed[k] = append(failed[k], n)
		}
		o.set("failedNodes", failed)
	}
	if r.volumes != nil && !r.volumes.empty() {
		o.set("volumes", r.volumes.json())
	}
	if len(r.claims) > 0 {
		o.set("claims", r.claims)
	}
	return o
}
