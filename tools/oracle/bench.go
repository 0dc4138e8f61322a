package main

// `oracle bench`: times upstream scheduling every pending pod of a cluster
// dump (a v1 List), for the side-by-side benchmark of docs/benchmarks.md.
//
//	oracle bench --in dump.json [--mode loop|scheduler|capacity] [--percentage N]
//	  [--first N] [--placements FILE]
//
// loop: the replay engine of the golden files (parallelism 1, adaptive
// percentageOfNodesToScore, lowest-node-name tie-break, preemption on), timed
// from the first pod's attempt to the last pod's binding. Its node search is
// deterministic: it starts at index 0 of the node tree's order and moves on
// by the number of nodes each attempt examined, as upstream's
// nextStartNodeIndex does.
// scheduler: the real scheduler (scheduler.New over a fake clientset, default
// options), timed from the first pending pod's creation to the last binding.
// --percentage sets percentageOfNodesToScore (both modes; 0 or absent: the
// release's adaptive default). Both print one JSON object on stdout.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
)

type benchResult struct {
	Mode               string   `json:"mode"`
	Release            string   `json:"release"`
	Nodes              int      `json:"nodes"`
	Pods               int      `json:"pods"`
	Scheduled          int      `json:"scheduled"`
	Seconds            float64  `json:"seconds"`
	PodsPerSecond      float64  `json:"podsPerSecond"`
	PeakRssMiB         float64  `json:"peakRssMiB"`
	Percentage         int      `json:"percentageOfNodesToScore"` // 0: adaptive
	PlacementsChecksum string   `json:"placementsChecksum,omitempty"`
	FirstPlacements    []string `json:"firstPlacements,omitempty"`
	StopReason         string   `json:"stopReason,omitempty"`
	FailedAttempts     int      `json:"failedAttempts,omitempty"` // scheduler: PodScheduled=False status patches
	perNodeLines       []string // capacity: sorted "node=copies"
}

func runBench(args []string) {
	fs := flag.NewFlagSet("bench", flag.ExitOnError)
	in := fs.String("in", "", "cluster dump: a v1 List of nodes, pods (running and pending) and what they refer to")
	mode := fs.String("mode", "loop", "loop (parallelism 1, deterministic), scheduler (scheduler.New, default options) or capacity")
	podFile := fs.String("pod", "", "capacity: the pod to copy (one Pod in JSON)")
	maxReplicas := fs.Int("max-replicas", 1000, "capacity: stop after this many copies")
	percentage := fs.Int("percentage", 0, "percentageOfNodesToScore, 1-100 (0: the adaptive default)")
	first := fs.Int("first", 0, "also print the first N placements in scheduling order (loop)")
	placementsOut := fs.String("placements", "", "write the sorted \"ns/name=node\" lines to this file")
	showLogs := fs.Bool("klog", false, "show the upstream scheduler's log lines")
	klog.InitFlags(nil)
	_ = fs.Parse(args)
	if !*showLogs {
		_ = flag.Set("logtostderr", "false")
		klog.SetOutput(io.Discard)
	}
	if *in == "" {
		fmt.Fprintln(os.Stderr, "usage: oracle bench --in dump.json [--mode loop|scheduler] [--first N] [--placements FILE]")
		os.Exit(2)
	}
	data, err := os.ReadFile(*in)
	if err != nil {
		fatal(err)
	}
	cl, err := parseItems(data)
	if err != nil {
		fatal(err)
	}
	var pending []*v1.Pod
	for _, p := range cl.pods {
		if p.Spec.NodeName == "" {
			pending = append(pending, p)
		}
	}
	var res *benchResult
	var placements map[string]string
	switch *mode {
	case "loop":
		res, placements, err = benchLoop(cl, pending, int32(*percentage), *first)
	case "scheduler":
		res, placements, err = benchScheduler(cl, pending, int32(*percentage))
	case "capacity":
		res, err = benchCapacity(cl, *podFile, *maxReplicas)
	default:
		err = fmt.Errorf("unknown mode %q", *mode)
	}
	if err != nil {
		fatal(err)
	}
	res.Release = kubernetesVersion()
	res.Percentage = *percentage
	res.Nodes = len(cl.nodes)
	if *mode != "capacity" {
		res.Pods = len(pending)
	}
	if res.Seconds > 0 {
		res.PodsPerSecond = float64(res.Scheduled) / res.Seconds
	}
	res.PeakRssMiB = peakRssMiB()
	lines := placementLines(pending, placements)
	if *mode == "capacity" {
		lines = res.perNodeLines
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n") + "\n"))
	if *mode != "scheduler" {
		res.PlacementsChecksum = hex.EncodeToString(sum[:])
	}
	if *placementsOut != "" {
		if err := os.WriteFile(*placementsOut, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			fatal(err)
		}
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
}

// placementLines: "ns/name=node" per pending pod, sorted; an unscheduled pod
// has an empty node.
func placementLines(pending []*v1.Pod, placements map[string]string) []string {
	lines := make([]string, 0, len(pending))
	for _, p := range pending {
		lines = append(lines, podKey(p)+"="+placements[podKey(p)])
	}
	sort.Strings(lines)
	return lines
}

func peakRssMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024 // KiB on Linux
}

// newBenchEngine builds the golden files' replay engine over the dump with
// the release's default profile (percentage: percentageOfNodesToScore, 0 for
// the adaptive default); stop cancels its informers.
func newBenchEngine(cl *cluster, preemption bool, percentage int32) (e *engine, stop func(), err error) {
	_ = utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{asyncPreemptionGate(): false})
	schedmetrics.Register()
	cfg := map[string]any{}
	if percentage > 0 {
		cfg["percentageOfNodesToScore"] = percentage
	}
	kc, err := loadSchedulerConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	rt := newRuntimeEnv(cl, nil)
	f, factory, err := newFramework(ctx, kc, rt)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	rt.volumes.pvLister = factory.Core().V1().PersistentVolumes().Lister()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	stop = func() {
		cancel() // before Shutdown, which waits for the informers to stop
		factory.Shutdown()
	}
	e = &engine{ctx: ctx, fw: f, rt: rt, items: cl.nodes, order: nodeTreeOrder(cl.nodes), podsOn: map[string][]*v1.Pod{},
		percentage: f.PercentageOfNodesToScore(), preemption: preemption}
	if kc.PercentageOfNodesToScore != nil {
		e.globalPct = *kc.PercentageOfNodesToScore
	}
	for _, p := range cl.pods {
		if p.Spec.NodeName != "" {
			e.podsOn[p.Spec.NodeName] = append(e.podsOn[p.Spec.NodeName], p)
		}
	}
	return e, stop, nil
}

// benchLoop replays the pending pods with the golden files' engine and the
// release's default profile, preemption on.
func benchLoop(cl *cluster, pending []*v1.Pod, percentage int32, first int) (*benchResult, map[string]string, error) {
	e, stop, err := newBenchEngine(cl, true, percentage)
	if err != nil {
		return nil, nil, err
	}
	defer stop()
	order := append([]*v1.Pod(nil), pending...)
	sort.SliceStable(order, func(i, j int) bool { return priorityOf(order[i]) > priorityOf(order[j]) })

	res := &benchResult{Mode: "loop"}
	placements := map[string]string{}
	t0 := time.Now()
	for k, p := range order {
		r, err := e.replayPod(p, k)
		if err != nil {
			return nil, nil, fmt.Errorf("pod %s: %w", podKey(p), err)
		}
		// Preemption victims lose their place; pending pods among them
		// would be rescheduled by upstream, here they count as evicted.
		for _, v := range r.victims {
			if _, ok := placements[v]; ok {
				placements[v] = ""
			}
		}
		placements[podKey(p)] = r.final.node
		if k < first {
			res.FirstPlacements = append(res.FirstPlacements, podKey(p)+"="+r.final.node)
		}
	}
	res.Seconds = time.Since(t0).Seconds()
	for _, n := range placements {
		if n != "" {
			res.Scheduled++
		}
	}
	return res, placements, nil
}

// benchCapacity binds copies of the pod one at a time, without preemption,
// until one fits nowhere or maxReplicas are bound (what `schedlab capacity`
// and cluster-capacity answer). Pending pods of the dump are ignored.
func benchCapacity(cl *cluster, podFile string, maxReplicas int) (*benchResult, error) {
	data, err := os.ReadFile(podFile)
	if err != nil {
		return nil, err
	}
	template := &v1.Pod{}
	if err := json.Unmarshal(data, template); err != nil {
		return nil, fmt.Errorf("%s: %w", podFile, err)
	}
	template.Spec.NodeName = ""
	cl.defaultPod(template)
	var running []*v1.Pod
	for _, p := range cl.pods {
		if p.Spec.NodeName != "" {
			running = append(running, p)
		}
	}
	cl.pods = running
	e, stop, err := newBenchEngine(cl, false, 0)
	if err != nil {
		return nil, err
	}
	defer stop()
	res := &benchResult{Mode: "capacity", StopReason: "maxReplicas"}
	perNode := map[string]int{}
	t0 := time.Now()
	for k := 0; k < maxReplicas; k++ {
		clone := template.DeepCopy()
		clone.Name = fmt.Sprintf("%s-%d", template.Name, k)
		clone.UID = uidFor("pod", clone.Namespace, clone.Name)
		r, err := e.replayPod(clone, k)
		if err != nil {
			return nil, err
		}
		if r.final.node == "" {
			res.StopReason = r.final.message
			break
		}
		res.Scheduled++
		perNode[r.final.node]++
	}
	res.Seconds = time.Since(t0).Seconds()
	res.Pods = maxReplicas
	for n, c := range perNode {
		res.perNodeLines = append(res.perNodeLines, fmt.Sprintf("%s=%d", n, c))
	}
	sort.Strings(res.perNodeLines)
	return res, nil
}
