//go:build k8s_1_37

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/kubernetes/pkg/scheduler"
)

// benchScheduler runs the real scheduler with default options over a fake
// clientset that already holds the nodes and running pods, then creates the
// pending pods and waits for their bindings. The fake API answers a binding
// the way the API server does: the pod gets its node, and the informers see it.
// percentage: percentageOfNodesToScore (0: the adaptive default).
func benchScheduler(cl *cluster, pending []*v1.Pod, percentage int32) (*benchResult, map[string]string, error) {
	// The fake watchers buffer events; every pending pod is created and updated
	// faster than the informers may drain them.
	watch.DefaultChanSize = 1 << 17
	var running []*v1.Pod
	for _, p := range cl.pods {
		if p.Spec.NodeName != "" {
			running = append(running, p)
		}
	}
	cs := fake.NewSimpleClientset(cl.apiObjects(running)...)

	var mu sync.Mutex
	placements := map[string]string{}
	var lastBind time.Time
	podsGVR := v1.SchemeGroupVersion.WithResource("pods")
	cs.PrependReactor("create", "pods", func(action k8stesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := action.(k8stesting.CreateAction).GetObject().(*v1.Binding)
		obj, err := cs.Tracker().Get(podsGVR, b.Namespace, b.Name)
		if err != nil {
			return true, nil, err
		}
		p := obj.(*v1.Pod).DeepCopy()
		if p.Spec.NodeName != "" {
			return true, nil, fmt.Errorf("pod %s/%s is already bound to %s", p.Namespace, p.Name, p.Spec.NodeName)
		}
		p.Spec.NodeName = b.Target.Name
		if err := cs.Tracker().Update(podsGVR, p, p.Namespace); err != nil {
			return true, nil, err
		}
		mu.Lock()
		placements[p.Namespace+"/"+p.Name] = b.Target.Name
		lastBind = time.Now()
		mu.Unlock()
		return true, b, nil
	})
	// A pod that failed an attempt gets its PodScheduled condition patched.
	attempted := map[string]bool{}
	failed := 0
	cs.PrependReactor("patch", "pods", func(action k8stesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() == "status" {
			mu.Lock()
			attempted[action.GetNamespace()+"/"+action.(k8stesting.PatchAction).GetName()] = true
			failed++
			mu.Unlock()
		}
		return false, nil, nil
	})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory := schedulerInformerFactory(cs)
	recorder := &events.FakeRecorder{}
	var opts []scheduler.Option
	if percentage > 0 {
		opts = append(opts, scheduler.WithPercentageOfNodesToScore(&percentage))
	}
	sched, err := scheduler.New(ctx, cs, factory, nil,
		func(string) events.EventRecorderLogger { return recorder }, opts...)
	if err != nil {
		return nil, nil, err
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	if err := sched.WaitForHandlersSync(ctx); err != nil {
		return nil, nil, err
	}
	go sched.Run(ctx)

	t0 := time.Now()
	for _, p := range pending {
		if _, err := cs.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			return nil, nil, err
		}
	}
	// Done when every pod is bound, or every pod was bound or found
	// unschedulable and nothing was bound for a few seconds.
	const quiet = 3 * time.Second
	deadline := t0.Add(60 * time.Minute)
	for {
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		bound := len(placements)
		settled := 0
		for _, p := range pending {
			k := podKey(p)
			if placements[k] != "" || attempted[k] {
				settled++
			}
		}
		last := lastBind
		mu.Unlock()
		if bound == len(pending) {
			break
		}
		if settled == len(pending) && time.Since(last) > quiet && time.Since(t0) > quiet {
			break
		}
		if time.Now().After(deadline) {
			return nil, nil, fmt.Errorf("scheduler: %d of %d pods bound after %s", bound, len(pending), time.Since(t0))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	res := &benchResult{Mode: "scheduler", Scheduled: len(placements), FailedAttempts: failed}
	if !lastBind.IsZero() {
		res.Seconds = lastBind.Sub(t0).Seconds()
	}
	out := map[string]string{}
	for k, v := range placements {
		out[k] = v
	}
	return res, out, nil
}
