package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	// v1 defaulting functions of the API server, registered in legacyscheme.
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
)

// cluster is the input of one case after API-server defaulting and the
// Priority admission step.
type cluster struct {
	priorityClasses []*schedulingv1.PriorityClass
	nodes           []*v1.Node // items order
	pods            []*v1.Pod  // items order, running and pending
	pdbs            []*policyv1.PodDisruptionBudget
	others          []runtime.Object // Services, ReplicaSets, StatefulSets, StorageClasses, CSINodes, PVs, PVCs
	pvs             []*v1.PersistentVolume
	pvcs            []*v1.PersistentVolumeClaim
	classes         []*storagev1.StorageClass
	csiNodes        []*storagev1.CSINode
	dra             []runtime.Object // DeviceClasses, ResourceSlices, ResourceClaims (dra.go), defaulted
}

var epoch = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

func parseItems(raw json.RawMessage) (*cluster, error) {
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, err
	}
	c := &cluster{}
	for _, it := range list.Items {
		var meta metav1.TypeMeta
		if err := json.Unmarshal(it, &meta); err != nil {
			return nil, err
		}
		var obj runtime.Object
		switch meta.Kind {
		case "PriorityClass":
			o := &schedulingv1.PriorityClass{}
			obj = o
			c.priorityClasses = append(c.priorityClasses, o)
		case "Node":
			o := &v1.Node{}
			obj = o
			c.nodes = append(c.nodes, o)
		case "Pod":
			o := &v1.Pod{}
			obj = o
			c.pods = append(c.pods, o)
		case "PodDisruptionBudget":
			o := &policyv1.PodDisruptionBudget{}
			obj = o
			c.pdbs = append(c.pdbs, o)
		case "Service":
			obj = &v1.Service{}
			c.others = append(c.others, obj)
		case "ReplicaSet":
			obj = &appsv1.ReplicaSet{}
			c.others = append(c.others, obj)
		case "StatefulSet":
			obj = &appsv1.StatefulSet{}
			c.others = append(c.others, obj)
		case "StorageClass":
			o := &storagev1.StorageClass{}
			obj = o
			c.classes = append(c.classes, o)
		case "CSINode":
			o := &storagev1.CSINode{}
			obj = o
			c.csiNodes = append(c.csiNodes, o)
		case "CSIStorageCapacity":
			obj = &storagev1.CSIStorageCapacity{}
			c.others = append(c.others, obj)
		case "CSIDriver":
			obj = &storagev1.CSIDriver{}
			c.others = append(c.others, obj)
		case "PersistentVolume":
			o := &v1.PersistentVolume{}
			obj = o
			c.pvs = append(c.pvs, o)
		case "PersistentVolumeClaim":
			o := &v1.PersistentVolumeClaim{}
			obj = o
			c.pvcs = append(c.pvcs, o)
		default:
			if ok, err := parseDRAItem(c, meta.Kind, it); ok || err != nil {
				if err != nil {
					return nil, err
				}
				continue
			}
			return nil, fmt.Errorf("unsupported kind %q", meta.Kind)
		}
		if err := json.Unmarshal(it, obj); err != nil {
			return nil, fmt.Errorf("%s: %w", meta.Kind, err)
		}
	}
	c.defaultAll()
	return c, nil
}

func uidFor(kind, ns, name string) types.UID {
	if ns == "" {
		return types.UID(fmt.Sprintf("uid-%s-%s", kind, name))
	}
	return types.UID(fmt.Sprintf("uid-%s-%s-%s", kind, ns, name))
}

// defaultAll applies what the API server would: namespace, v1 defaulting, the
// DefaultStorageClass admission for claims and the Priority admission for pods.
func (c *cluster) defaultAll() {
	fix := func(kind string, m *metav1.ObjectMeta, namespaced bool) {
		if namespaced && m.Namespace == "" {
			m.Namespace = metav1.NamespaceDefault
		}
		if m.UID == "" {
			m.UID = uidFor(kind, m.Namespace, m.Name)
		}
		m.ResourceVersion = "1"
	}
	for _, o := range c.priorityClasses {
		fix("priorityclass", &o.ObjectMeta, false)
		legacyscheme.Scheme.Default(o)
	}
	for _, o := range c.nodes {
		fix("node", &o.ObjectMeta, false)
		legacyscheme.Scheme.Default(o)
	}
	for _, o := range c.pdbs {
		fix("pdb", &o.ObjectMeta, true)
		legacyscheme.Scheme.Default(o)
	}
	for _, o := range c.others {
		m, namespaced := metaOf(o)
		fix(strings.ToLower(o.GetObjectKind().GroupVersionKind().Kind), m, namespaced)
		legacyscheme.Scheme.Default(o)
	}
	var defaultClass string
	for _, o := range c.classes {
		fix("storageclass", &o.ObjectMeta, false)
		legacyscheme.Scheme.Default(o)
		if o.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" {
			defaultClass = o.Name
		}
	}
	for _, o := range c.csiNodes {
		fix("csinode", &o.ObjectMeta, false)
		legacyscheme.Scheme.Default(o)
	}
	for _, o := range c.pvs {
		fix("pv", &o.ObjectMeta, false)
		legacyscheme.Scheme.Default(o)
	}
	for _, o := range c.pvcs {
		fix("pvc", &o.ObjectMeta, true)
		legacyscheme.Scheme.Default(o)
		if o.Spec.StorageClassName == nil && defaultClass != "" {
			cls := defaultClass
			o.Spec.StorageClassName = &cls
		}
	}
	for _, p := range c.pods {
		c.defaultPod(p)
	}
}

func (c *cluster) defaultPod(p *v1.Pod) {
	if p.Namespace == "" {
		p.Namespace = metav1.NamespaceDefault
	}
	if p.UID == "" {
		p.UID = uidFor("pod", p.Namespace, p.Name)
	}
	p.ResourceVersion = "1"
	legacyscheme.Scheme.Default(p)
	prepareForCreate(p)
	c.admitPriority(p)
}

// admitPriority is the Priority admission step as the README describes it.
func (c *cluster) admitPriority(p *v1.Pod) {
	var class *schedulingv1.PriorityClass
	if p.Spec.PriorityClassName != "" {
		for _, pc := range c.priorityClasses {
			if pc.Name == p.Spec.PriorityClassName {
				class = pc
			}
		}
	} else {
		for _, pc := range c.priorityClasses {
			if pc.GlobalDefault && (class == nil || pc.Value > class.Value) {
				class = pc
			}
		}
		if class != nil {
			p.Spec.PriorityClassName = class.Name
		}
	}
	prio := int32(0)
	policy := v1.PreemptLowerPriority
	if class != nil {
		prio = class.Value
		if class.PreemptionPolicy != nil {
			policy = *class.PreemptionPolicy
		}
	}
	p.Spec.Priority = &prio
	p.Spec.PreemptionPolicy = &policy
}

func metaOf(o runtime.Object) (*metav1.ObjectMeta, bool) {
	switch t := o.(type) {
	case *v1.Service:
		return &t.ObjectMeta, true
	case *appsv1.ReplicaSet:
		return &t.ObjectMeta, true
	case *appsv1.StatefulSet:
		return &t.ObjectMeta, true
	case *storagev1.CSIStorageCapacity:
		return &t.ObjectMeta, true
	case *storagev1.CSIDriver:
		return &t.ObjectMeta, false // cluster-scoped
	}
	return nil, false
}

func podKey(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

func priorityOf(p *v1.Pod) int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}

// nodeTreeOrder lists nodes the way the scheduler cache's node tree does:
// zones in order of first appearance, then round-robin over zones.
func nodeTreeOrder(nodes []*v1.Node) []*v1.Node {
	var zones []string
	byZone := map[string][]*v1.Node{}
	for _, n := range nodes {
		z := zoneKey(n)
		if _, ok := byZone[z]; !ok {
			zones = append(zones, z)
		}
		byZone[z] = append(byZone[z], n)
	}
	out := make([]*v1.Node, 0, len(nodes))
	for i := 0; len(out) < len(nodes); i++ {
		for _, z := range zones {
			if i < len(byZone[z]) {
				out = append(out, byZone[z][i])
			}
		}
	}
	return out
}

func zoneKey(n *v1.Node) string {
	region := n.Labels[v1.LabelTopologyRegion]
	zone := n.Labels[v1.LabelTopologyZone]
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}
