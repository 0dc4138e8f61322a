package main

import (
	"fmt"
	"sort"
	"strconv"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
)

// runtimeEnv is what the framework sees besides the snapshot: a fake API
// client holding every input object, its informers, and the recorder of the
// writes VolumeBinding's PreBind makes.
type runtimeEnv struct {
	cs      *fake.Clientset
	lister  *snapLister
	volumes *volumeCapture
	mu      sync.Mutex
	victims []string // "ns/name" of the pods preemption evicted
}

// recordVictim notes a pod that preemption evicted; the executor may call it from
// its own goroutine.
func (rt *runtimeEnv) recordVictim(victim *v1.Pod) {
	rt.mu.Lock()
	rt.victims = append(rt.victims, podKey(victim))
	rt.mu.Unlock()
}

var (
	pvResource  = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumes"}
	pvcResource = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}
)

// apiObjects lists the cluster's objects the way the fake API holds them:
// priority classes, nodes, PDBs, Services and workloads, storage classes,
// CSINodes, PVs, PVCs, then the given pods. The replay engine's runtime and
// `oracle bench --mode scheduler` both load a fake clientset from it.
func (c *cluster) apiObjects(pods []*v1.Pod) []runtime.Object {
	var objs []runtime.Object
	for _, o := range c.priorityClasses {
		objs = append(objs, o)
	}
	for _, o := range c.nodes {
		objs = append(objs, o)
	}
	for _, o := range c.pdbs {
		objs = append(objs, o)
	}
	objs = append(objs, c.others...)
	for _, o := range c.classes {
		objs = append(objs, o)
	}
	for _, o := range c.csiNodes {
		objs = append(objs, o)
	}
	for _, pv := range c.pvs {
		objs = append(objs, pv)
	}
	for _, o := range c.pvcs {
		objs = append(objs, o)
	}
	objs = append(objs, c.dra...)
	for _, p := range pods {
		objs = append(objs, p)
	}
	return objs
}

func newRuntimeEnv(c *cluster, pending []*v1.Pod) *runtimeEnv {
	originals, bumped := map[string]resource.Quantity{}, map[string]resource.Quantity{}
	equalCapacityOrder(c.pvs, originals, bumped)
	pods := append([]*v1.Pod(nil), c.pods...)
	for _, p := range pending {
		found := false
		for _, q := range c.pods {
			if q == p {
				found = true
			}
		}
		if !found {
			pods = append(pods, p)
		}
	}
	objs := c.apiObjects(pods)
	env := &runtimeEnv{cs: fake.NewSimpleClientset(objs...), lister: newSnapLister()}
	env.volumes = &volumeCapture{env: env, originals: originals, bumped: bumped, classes: c, rv: 1000}
	env.cs.PrependReactor("update", "persistentvolumes", env.volumes.onPVUpdate)
	env.cs.PrependReactor("update", "persistentvolumeclaims", env.volumes.onPVCUpdate)
	installDRAReactors(env)
	standInDriver(env)
	return env
}

// equalCapacityOrder makes the choice among unbound PVs of equal capacity
// deterministic: upstream keeps the first one its cache lists (map order); the
// replay rule takes the smallest name. Each PV of such a group gets, in name
// order, 0, 1, 2… extra bytes of capacity (returned in bumped; originals keeps
// the real value). perturb applies them to the informer's objects only while
// Filter chooses PVs, so no request comparison changes and scoring, Reserve and
// the API objects see the real capacity.
func equalCapacityOrder(pvs []*v1.PersistentVolume, originals, bumped map[string]resource.Quantity) {
	groups := map[string][]*v1.PersistentVolume{}
	for _, pv := range pvs {
		if pv.Spec.ClaimRef != nil {
			continue
		}
		q := pv.Spec.Capacity[v1.ResourceStorage]
		key := pv.Spec.StorageClassName + "|" + strconv.FormatInt(q.Value(), 10)
		groups[key] = append(groups[key], pv)
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		sort.Slice(g, func(i, j int) bool { return g[i].Name < g[j].Name })
		for i, pv := range g {
			q := pv.Spec.Capacity[v1.ResourceStorage]
			originals[pv.Name] = q.DeepCopy()
			bumped[pv.Name] = *resource.NewQuantity(q.Value()+int64(i), q.Format)
		}
	}
}

// perturb switches the informer's copies of the grouped, still unbound PVs to
// their bumped (on) or real (off) capacity. The VolumeBinding assume cache
// holds the same objects, so Filter's smallest-PV choice sees the bumps.
func (v *volumeCapture) perturb(on bool) {
	if v.pvLister == nil || len(v.bumped) == 0 {
		return
	}
	for name, q := range v.bumped {
		pv, err := v.pvLister.Get(name)
		if err != nil || pv.Spec.ClaimRef != nil {
			continue
		}
		if !on {
			q = v.originals[name]
		}
		pv.Spec.Capacity[v1.ResourceStorage] = q
	}
}

// volumeRecord is the `volumes` field of a result.
type volumeRecord struct {
	static       map[string]string
	provisioned  map[string]string
	selectedNode string
}

func (r *volumeRecord) empty() bool { return len(r.static) == 0 && len(r.provisioned) == 0 }

func (r *volumeRecord) json() *ordered {
	o := newOrdered()
	if len(r.static) > 0 {
		o.set("staticBindings", r.static)
	}
	if len(r.provisioned) > 0 {
		o.set("provisioned", r.provisioned)
		o.set("selectedNode", r.selectedNode)
	}
	return o
}

// volumeCapture answers VolumeBinding's PreBind API writes and completes them
// at once as the PV controller or an external provisioner would.
type volumeCapture struct {
	env       *runtimeEnv
	originals map[string]resource.Quantity
	bumped    map[string]resource.Quantity
	pvLister  corelisters.PersistentVolumeLister
	classes   *cluster
	rv        int
	mu        sync.Mutex
	current   *volumeRecord
}

func (v *volumeCapture) begin(node string) {
	v.mu.Lock()
	v.current = &volumeRecord{static: map[string]string{}, provisioned: map[string]string{}, selectedNode: node}
	v.mu.Unlock()
}

func (v *volumeCapture) end() *volumeRecord {
	v.mu.Lock()
	defer v.mu.Unlock()
	r := v.current
	v.current = nil
	return r
}

func (v *volumeCapture) nextRV() string {
	v.rv++
	return strconv.Itoa(v.rv)
}

func (v *volumeCapture) tracker() k8stesting.ObjectTracker { return v.env.cs.Tracker() }

func (v *volumeCapture) bindClaim(ns, name string, pv *v1.PersistentVolume) error {
	obj, err := v.tracker().Get(pvcResource, ns, name)
	if err != nil {
		return err
	}
	pvc := obj.(*v1.PersistentVolumeClaim).DeepCopy()
	pvc.Spec.VolumeName = pv.Name
	if pvc.Annotations == nil {
		pvc.Annotations = map[string]string{}
	}
	pvc.Annotations["pv.kubernetes.io/bind-completed"] = "yes"
	pvc.Annotations["pv.kubernetes.io/bound-by-controller"] = "yes"
	pvc.Status.Phase = v1.ClaimBound
	pvc.Status.AccessModes = pv.Spec.AccessModes
	pvc.Status.Capacity = v1.ResourceList{v1.ResourceStorage: pv.Spec.Capacity[v1.ResourceStorage]}
	pvc.ResourceVersion = v.nextRV()
	return v.tracker().Update(pvcResource, pvc, ns)
}

func (v *volumeCapture) onPVUpdate(action k8stesting.Action) (bool, runtime.Object, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	pv := action.(k8stesting.UpdateAction).GetObject().(*v1.PersistentVolume).DeepCopy()
	if q, ok := v.originals[pv.Name]; ok {
		pv.Spec.Capacity[v1.ResourceStorage] = q
	}
	if pv.Annotations == nil {
		pv.Annotations = map[string]string{}
	}
	pv.Annotations["pv.kubernetes.io/bound-by-controller"] = "yes"
	pv.Status.Phase = v1.VolumeBound
	pv.ResourceVersion = v.nextRV()
	if err := v.tracker().Update(pvResource, pv, ""); err != nil {
		return true, nil, err
	}
	if ref := pv.Spec.ClaimRef; ref != nil {
		if err := v.bindClaim(ref.Namespace, ref.Name, pv); err != nil {
			return true, nil, err
		}
		if v.current != nil {
			v.current.static[ref.Namespace+"/"+ref.Name] = pv.Name
		}
	}
	return true, pv, nil
}

func (v *volumeCapture) onPVCUpdate(action k8stesting.Action) (bool, runtime.Object, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	claim := action.(k8stesting.UpdateAction).GetObject().(*v1.PersistentVolumeClaim).DeepCopy()
	node := claim.Annotations["volume.kubernetes.io/selected-node"]
	claim.ResourceVersion = v.nextRV()
	if err := v.tracker().Update(pvcResource, claim, claim.Namespace); err != nil {
		return true, nil, err
	}
	if node == "" || claim.Spec.VolumeName != "" {
		return true, claim, nil
	}
	pv, err := v.provision(claim, node)
	if err != nil {
		return true, nil, err
	}
	if err := v.bindClaim(claim.Namespace, claim.Name, pv); err != nil {
		return true, nil, err
	}
	if v.current != nil {
		v.current.provisioned[claim.Namespace+"/"+claim.Name] = pv.Name
	}
	obj, _ := v.tracker().Get(pvcResource, claim.Namespace, claim.Name)
	return true, obj, nil
}

// provision creates the PV an external provisioner would for claim on node.
func (v *volumeCapture) provision(claim *v1.PersistentVolumeClaim, nodeName string) (*v1.PersistentVolume, error) {
	className := ""
	if claim.Spec.StorageClassName != nil {
		className = *claim.Spec.StorageClassName
	}
	var driver string
	reclaim := v1.PersistentVolumeReclaimDelete
	for _, sc := range v.classes.classes {
		if sc.Name == className {
			driver = sc.Provisioner
			if sc.ReclaimPolicy != nil {
				reclaim = *sc.ReclaimPolicy
			}
		}
	}
	if driver == "" {
		return nil, fmt.Errorf("claim %s/%s: class %q has no provisioner", claim.Namespace, claim.Name, className)
	}
	name := "pvc-" + string(claim.UID)
	pv := &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: uidFor("pv", "", name), ResourceVersion: v.nextRV(),
			Annotations: map[string]string{"pv.kubernetes.io/provisioned-by": driver}},
		Spec: v1.PersistentVolumeSpec{
			Capacity:                      v1.ResourceList{v1.ResourceStorage: claim.Spec.Resources.Requests[v1.ResourceStorage]},
			AccessModes:                   claim.Spec.AccessModes,
			VolumeMode:                    claim.Spec.VolumeMode,
			StorageClassName:              className,
			PersistentVolumeReclaimPolicy: reclaim,
			PersistentVolumeSource:        v1.PersistentVolumeSource{CSI: &v1.CSIPersistentVolumeSource{Driver: driver, VolumeHandle: name}},
			ClaimRef: &v1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: claim.Namespace,
				Name: claim.Name, UID: claim.UID},
		},
		Status: v1.PersistentVolumeStatus{Phase: v1.VolumeBound},
	}
	var node *v1.Node
	for _, n := range v.classes.nodes {
		if n.Name == nodeName {
			node = n
		}
	}
	var reqs []v1.NodeSelectorRequirement
	for _, cn := range v.classes.csiNodes {
		if cn.Name != nodeName || node == nil {
			continue
		}
		for _, d := range cn.Spec.Drivers {
			if d.Name != driver {
				continue
			}
			for _, key := range d.TopologyKeys {
				if val, ok := node.Labels[key]; ok {
					reqs = append(reqs, v1.NodeSelectorRequirement{Key: key, Operator: v1.NodeSelectorOpIn, Values: []string{val}})
				}
			}
		}
	}
	if len(reqs) > 0 {
		pv.Spec.NodeAffinity = &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{
			NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: reqs}}}}
	}
	if err := v.tracker().Create(pvResource, pv, ""); err != nil {
		return nil, err
	}
	return pv, nil
}
