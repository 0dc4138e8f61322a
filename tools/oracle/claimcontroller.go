//go:build k8s_1_34 || k8s_1_36 || k8s_1_37

package main

// The resourceclaim controller of kube-controller-manager, run before the replay: pods whose
// spec.resourceClaims name a ResourceClaimTemplate get their claims generated from it (owned
// by the pod) and recorded in pod.status.resourceClaimStatuses, as in a cluster before the
// scheduler sees them.

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
)

const podClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name"

// generatedClaimSuffix stands for the API server's 5 random generateName characters: the
// base-27 digits of FNV-1a over "ns/pod/podClaim" in util/rand's alphabet (Schedlab's
// dynamicresources/claim-templates.ts draws the same).
func generatedClaimSuffix(namespace, pod, podClaim string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	h := fnv.New32a()
	_, _ = h.Write([]byte(namespace + "/" + pod + "/" + podClaim))
	v := h.Sum32()
	out := make([]byte, 5)
	for i := range out {
		out[i] = alphabet[v%27]
		v /= 27
	}
	return string(out)
}

// needsClaims tells whether the controller still has to generate or adopt a claim for one of
// the pod's template entries: none recorded, or the recorded claim missing or not the pod's.
func needsClaims(p *v1.Pod, claim func(namespace, name string) *resourceapi.ResourceClaim) bool {
	for _, pc := range p.Spec.ResourceClaims {
		if pc.ResourceClaimTemplateName == nil {
			continue
		}
		name, _, err := resourceclaim.Name(p, &pc)
		if err != nil {
			return true
		}
		if name == nil {
			continue
		}
		cl := claim(p.Namespace, *name)
		if cl == nil || claimIsForPod(p, cl) != nil {
			return true
		}
	}
	return false
}

// controllerCompletes tells whether the controller takes the pod up (podNeedsWork: from 1.36 it
// looks past entries it cannot act on, before it stops at the first) and creates or adopts every
// claim it needs, because the templates exist.
func controllerCompletes(p *v1.Pod, claim func(namespace, name string) *resourceapi.ResourceClaim, templates map[string]bool) bool {
	takesUp := false
	for _, pc := range p.Spec.ResourceClaims {
		name, checkOwner, err := resourceclaim.Name(p, &pc)
		if err != nil {
			takesUp = true
			break
		}
		skip := name == nil
		if !skip {
			cl := claim(p.Namespace, *name)
			if cl == nil && pc.ResourceClaimTemplateName != nil {
				takesUp = true
				break
			}
			skip = cl == nil || (checkOwner && claimIsForPod(p, cl) != nil)
		}
		if skip && !claimControllerChecksEveryEntry {
			return false
		}
	}
	if !takesUp {
		return false
	}
	for _, pc := range p.Spec.ResourceClaims {
		if pc.ResourceClaimTemplateName != nil && !templates[p.Namespace+"/"+*pc.ResourceClaimTemplateName] {
			return false
		}
	}
	return true
}

// runClaimController runs upstream's controller over the cluster's pods, claims and templates
// until every pod whose templates all exist has its claims, then copies the generated claims
// and the pods' claim statuses into the cluster.
func runClaimController(c *cluster) error {
	templates := map[string]bool{}
	inputClaims := map[string]*resourceapi.ResourceClaim{}
	var objs []runtime.Object
	for _, o := range c.dra {
		switch t := o.(type) {
		case *resourceapi.ResourceClaimTemplate:
			templates[t.Namespace+"/"+t.Name] = true
			objs = append(objs, t)
		case *resourceapi.ResourceClaim:
			inputClaims[t.Namespace+"/"+t.Name] = t
			objs = append(objs, t)
		}
	}
	var waiting []*v1.Pod
	for _, p := range c.pods {
		if p.DeletionTimestamp == nil && needsClaims(p, func(ns, name string) *resourceapi.ResourceClaim { return inputClaims[ns+"/"+name] }) {
			waiting = append(waiting, p)
		}
	}
	if len(waiting) == 0 {
		return nil
	}
	for _, p := range c.pods {
		objs = append(objs, p)
	}
	// The field-managed fake: the controller records claim names with a server-side apply.
	cs := fake.NewClientset(objs...)
	cs.PrependReactor("create", "resourceclaims", func(a k8stesting.Action) (bool, runtime.Object, error) {
		claim := a.(k8stesting.CreateAction).GetObject().(*resourceapi.ResourceClaim)
		if claim.Name == "" && claim.GenerateName != "" && len(claim.OwnerReferences) > 0 {
			// The controller leaves the namespace to the request, as the API server fills it.
			ns := a.GetNamespace()
			base := claim.GenerateName
			if len(base) > 58 {
				base = base[:58]
			}
			claim.Name = base + generatedClaimSuffix(ns, claim.OwnerReferences[0].Name, claim.Annotations[podClaimNameAnnotation])
			claim.UID = uidFor("resourceclaim", ns, claim.Name)
		}
		return false, nil, nil
	})
	// The controller's handlers are added once the informers have synced, so every pod is judged
	// (podNeedsWork) against the claims already there, as in a running cluster; added earlier,
	// a pod could be seen before its claims and be worked on when it would not be.
	factory := informers.NewSharedInformerFactory(cs, 0)
	factory.Core().V1().Pods().Informer()
	factory.Resource().V1().ResourceClaims().Informer()
	factory.Resource().V1().ResourceClaimTemplates().Informer()
	ctx, cancel := context.WithCancel(context.Background())
	defer factory.Shutdown()
	defer cancel()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	ctrl, err := newClaimController(cs, factory)
	if err != nil {
		return fmt.Errorf("resourceclaim controller: %w", err)
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	go ctrl.Run(ctx, 1)

	// The pods the controller takes up (podNeedsWork, as the release words it) and completes
	// (every template it needs exists) must get their claims; then the controller is done once
	// claims and pod statuses stop changing. A pod judged wrongly here fails the recording with a
	// timeout instead of recording a half-finished controller.
	var expect []*v1.Pod
	for _, p := range waiting {
		if controllerCompletes(p, func(ns, name string) *resourceapi.ResourceClaim { return inputClaims[ns+"/"+name] }, templates) {
			expect = append(expect, p)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	fromAPI := func(ns, name string) *resourceapi.ResourceClaim {
		cl, err := cs.ResourceV1().ResourceClaims(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil
		}
		return cl
	}
	for _, p := range expect {
		for {
			got, err := cs.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
			if err == nil && !needsClaims(got, fromAPI) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("resourceclaim controller: no claims for pod %s/%s", p.Namespace, p.Name)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	settle(func() string {
		claims, _ := cs.ResourceV1().ResourceClaims("").List(ctx, metav1.ListOptions{})
		pods, _ := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
		var state []string
		for _, c := range claims.Items {
			state = append(state, c.Namespace+"/"+c.Name)
		}
		for _, p := range pods.Items {
			for _, st := range p.Status.ResourceClaimStatuses {
				name := "-"
				if st.ResourceClaimName != nil {
					name = *st.ResourceClaimName
				}
				state = append(state, p.Namespace+"/"+p.Name+"/"+st.Name+"="+name)
			}
		}
		sort.Strings(state)
		return fmt.Sprint(state)
	}, 500*time.Millisecond, deadline)
	cancel()

	known := map[string]bool{}
	for _, o := range c.dra {
		if t, ok := o.(*resourceapi.ResourceClaim); ok {
			known[t.Namespace+"/"+t.Name] = true
		}
	}
	claims, err := cs.ResourceV1().ResourceClaims("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return err
	}
	sort.Slice(claims.Items, func(i, j int) bool { return claims.Items[i].Name < claims.Items[j].Name })
	for i := range claims.Items {
		cl := claims.Items[i].DeepCopy()
		if known[cl.Namespace+"/"+cl.Name] {
			continue
		}
		cl.ResourceVersion = "1"
		c.dra = append(c.dra, cl)
	}
	for _, p := range c.pods {
		got, err := cs.CoreV1().Pods(p.Namespace).Get(context.Background(), p.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		// The controller applies the statuses from a map; keep spec order.
		order := map[string]int{}
		for i, pc := range p.Spec.ResourceClaims {
			order[pc.Name] = i
		}
		st := append([]v1.PodResourceClaimStatus(nil), got.Status.ResourceClaimStatuses...)
		sort.SliceStable(st, func(i, j int) bool { return order[st[i].Name] < order[st[j].Name] })
		p.Status.ResourceClaimStatuses = st
	}
	return nil
}

// settle waits until state() has not changed for quiet (or the deadline passes).
func settle(state func() string, quiet time.Duration, deadline time.Time) {
	last, since := state(), time.Now()
	for time.Since(since) < quiet && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if s := state(); s != last {
			last, since = s, time.Now()
		}
	}
}
