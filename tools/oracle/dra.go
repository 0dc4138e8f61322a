//go:build k8s_1_34 || k8s_1_36 || k8s_1_37

package main

// Dynamic resource allocation inputs (DeviceClass, ResourceSlice, ResourceClaim and
// ResourceClaimTemplate of resource.k8s.io/v1) and the claims' allocations as DynamicResources' PreBind
// wrote them through the fake API.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	_ "k8s.io/kubernetes/pkg/apis/resource/install"
)

// parseDRAItem decodes one resource.k8s.io item; ok is false for other kinds.
func parseDRAItem(c *cluster, kind string, raw json.RawMessage) (bool, error) {
	var obj runtime.Object
	var meta *metav1.ObjectMeta
	namespaced := false
	if kind == "DeviceTaintRule" {
		return true, parseDeviceTaintRule(c, raw)
	}
	switch kind {
	case "DeviceClass":
		o := &resourceapi.DeviceClass{}
		obj, meta = o, &o.ObjectMeta
	case "ResourceSlice":
		o := &resourceapi.ResourceSlice{}
		obj, meta = o, &o.ObjectMeta
	case "ResourceClaim":
		o := &resourceapi.ResourceClaim{}
		obj, meta, namespaced = o, &o.ObjectMeta, true
	case "ResourceClaimTemplate":
		o := &resourceapi.ResourceClaimTemplate{}
		obj, meta, namespaced = o, &o.ObjectMeta, true
	default:
		return false, nil
	}
	if err := json.Unmarshal(raw, obj); err != nil {
		return true, fmt.Errorf("%s: %w", kind, err)
	}
	if namespaced && meta.Namespace == "" {
		meta.Namespace = metav1.NamespaceDefault
	}
	if meta.UID == "" {
		meta.UID = uidFor(kind, meta.Namespace, meta.Name)
	}
	meta.ResourceVersion = "1"
	legacyscheme.Scheme.Default(obj)
	c.dra = append(c.dra, obj)
	return true, nil
}

// extendedClaimAnnotation marks the claim DynamicResources writes for a pod's extended resources
// backed by DRA (DRAExtendedResource); its name is the pod's name with this generateName suffix.
const extendedClaimAnnotation = "resource.kubernetes.io/extended-resource-claim"

// installDRAReactors lets the fake API name the claim DynamicResources' PreBind creates for a
// pod's extended resources (the fake clientset ignores generateName): its 5 random characters are
// the hash of namespace, pod and "<extended-resources>" that Schedlab draws too.
func installDRAReactors(rt *runtimeEnv) {
	rt.cs.PrependReactor("create", "resourceclaims", func(a k8stesting.Action) (bool, runtime.Object, error) {
		claim := a.(k8stesting.CreateAction).GetObject().(*resourceapi.ResourceClaim)
		if claim.Name == "" && claim.GenerateName != "" && claim.Annotations[extendedClaimAnnotation] == "true" && len(claim.OwnerReferences) > 0 {
			ns := a.GetNamespace()
			base := claim.GenerateName
			if len(base) > 58 {
				base = base[:58]
			}
			claim.Name = base + generatedClaimSuffix(ns, claim.OwnerReferences[0].Name, "<extended-resources>")
			claim.UID = types.UID("uid-resourceclaim-" + ns + "-" + claim.Name)
			// The assume cache needs a version to take the informer's copy.
			claim.ResourceVersion = "1"
		}
		return false, nil, nil
	})
}

// requestsDRAExtendedResource: a container asks for an extended resource (or a device class's
// implicit one), which DynamicResources may have to allocate and write at PreBind.
func requestsDRAExtendedResource(pod *v1.Pod) bool {
	for _, cs := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range cs {
			for name := range c.Resources.Requests {
				n := string(name)
				if strings.HasPrefix(n, "deviceclass.resource.kubernetes.io/") || (strings.Contains(n, "/") && !strings.Contains(n, "kubernetes.io/")) {
					return true
				}
			}
		}
	}
	return false
}

// draClaims reports, per claim of the pod ("ns/name"), the devices its allocation
// holds after PreBind: "request driver/pool/device", with " admin" for admin access.
// The claim PreBind wrote for the pod's extended resources is the one its status names.
func (rt *runtimeEnv) draClaims(pod *v1.Pod) map[string][]string {
	var names []string
	for _, pc := range pod.Spec.ResourceClaims {
		// A template's claim is the one the resourceclaim controller recorded in the status.
		claimName, _, err := resourceclaim.Name(pod, &pc)
		if err != nil || claimName == nil || *claimName == "" {
			continue
		}
		names = append(names, *claimName)
	}
	if requestsDRAExtendedResource(pod) {
		if got, err := rt.cs.CoreV1().Pods(pod.Namespace).Get(context.Background(), pod.Name, metav1.GetOptions{}); err == nil && got.Status.ExtendedResourceClaimStatus != nil {
			names = append(names, got.Status.ExtendedResourceClaimStatus.ResourceClaimName)
		}
	}
	if len(names) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, name := range names {
		claim, err := rt.cs.ResourceV1().ResourceClaims(pod.Namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil || claim.Status.Allocation == nil {
			continue
		}
		devices := []string{}
		for _, r := range claim.Status.Allocation.Devices.Results {
			d := fmt.Sprintf("%s %s/%s/%s", r.Request, r.Driver, r.Pool, r.Device)
			if r.AdminAccess != nil && *r.AdminAccess {
				d += " admin"
			}
			if len(r.BindingConditions) > 0 {
				d += " bindingConditions=" + strings.Join(r.BindingConditions, ",")
			}
			if len(r.BindingFailureConditions) > 0 {
				d += " bindingFailureConditions=" + strings.Join(r.BindingFailureConditions, ",")
			}
			devices = append(devices, d)
		}
		out[pod.Namespace+"/"+name] = devices
	}
	return out
}

// waitForDRA waits until the DRA manager's caches (the claims' assume cache, its
// allocated-devices index and the slice tracker) hold every input object: their event
// handlers run after the informers report synced.
// draClassesSynced reports whether the extended-resource cache has seen every DeviceClass
// (DRAExtendedResource, 1.36+; nil when nothing feeds such a cache).
var draClassesSynced func() bool

func waitForDRA(f framework.Framework, c *cluster) {
	dm := f.SharedDRAManager()
	if dm == nil {
		return
	}
	var claims, slices, allocated int
	shares := map[string]bool{}
	for _, o := range c.dra {
		switch t := o.(type) {
		case *resourceapi.ResourceClaim:
			claims++
			if t.Status.Allocation != nil {
				for _, r := range t.Status.Allocation.Devices.Results {
					// Shares of a device (consumable capacity) are tracked apart from the
					// devices a claim holds whole (sharesTracked).
					if r.AdminAccess != nil && *r.AdminAccess {
						continue
					}
					if r.ShareID == nil {
						allocated++
					} else {
						shares[r.Driver+"/"+r.Pool+"/"+r.Device+"/"+string(*r.ShareID)] = true
					}
				}
			}
		case *resourceapi.ResourceSlice:
			slices++
		}
	}
	waitUntil(func() bool {
		if draClassesSynced != nil && !draClassesSynced() {
			return false
		}
		cl, err := dm.ResourceClaims().List()
		if err != nil || len(cl) < claims {
			return false
		}
		sl, err := dm.ResourceSlices().ListWithDeviceTaintRules()
		if err != nil || len(sl) < slices || !taintRulesApplied(c, sl) {
			return false
		}
		devs, err := dm.ResourceClaims().ListAllAllocatedDevices()
		return err == nil && devs.Len() >= allocated && sharesTracked(dm.ResourceClaims(), len(shares))
	})
}

// standInDriver makes the fake API number claim writes and act as the DRA drivers for binding
// conditions (test tooling only). Every claim update gets a newer resourceVersion, as the API
// server gives it, so the scheduler's assume cache takes the informer's copy of a claim PostFilter
// deallocated (it ignores an update whose version is not newer). When the scheduler writes a
// claim's status whose allocation has devices with binding conditions, each such device's
// conditions are reported True in status.devices in the same write, unless a binding failure
// condition of the device is already True: DynamicResources' PreBind then finds the claim ready
// on its first check instead of waiting for the timeout.
func standInDriver(rt *runtimeEnv) {
	rv := 1000
	rt.cs.PrependReactor("update", "resourceclaims", func(action k8stesting.Action) (bool, runtime.Object, error) {
		claim, ok := action.(k8stesting.UpdateAction).GetObject().(*resourceapi.ResourceClaim)
		if !ok {
			return false, nil, nil
		}
		rv++
		claim.ResourceVersion = strconv.Itoa(rv)
		if action.GetSubresource() != "status" || claim.Status.Allocation == nil {
			return false, nil, nil
		}
		for _, r := range claim.Status.Allocation.Devices.Results {
			if len(r.BindingConditions) == 0 {
				continue
			}
			i := -1
			for j, d := range claim.Status.Devices {
				if d.Driver == r.Driver && d.Pool == r.Pool && d.Device == r.Device {
					i = j
				}
			}
			if i < 0 {
				claim.Status.Devices = append(claim.Status.Devices, resourceapi.AllocatedDeviceStatus{
					Driver: r.Driver, Pool: r.Pool, Device: r.Device,
				})
				i = len(claim.Status.Devices) - 1
			}
			device := &claim.Status.Devices[i]
			failed := false
			for _, f := range r.BindingFailureConditions {
				for _, c := range device.Conditions {
					if c.Type == f && c.Status == metav1.ConditionTrue {
						failed = true
					}
				}
			}
			if failed {
				continue
			}
			for _, want := range r.BindingConditions {
				apimeta.SetStatusCondition(&device.Conditions, metav1.Condition{
					Type: want, Status: metav1.ConditionTrue, Reason: "OracleDriver",
					Message: "the oracle stands in for the driver",
				})
			}
		}
		return false, nil, nil
	})
}

// waitForClaimWrites waits until the DRA manager's claim cache and its allocated-devices index agree
// with the API on which claims are allocated: PostFilter deallocates a claim through the API, and the
// next pod's cycle must see the device free, as the scheduler's next cycle would once the informer
// caught up.
func waitForClaimWrites(f framework.Framework, rt *runtimeEnv) {
	dm := f.SharedDRAManager()
	if dm == nil {
		return
	}
	list, err := rt.cs.ResourceV1().ResourceClaims("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return
	}
	// The distinct devices the allocated-devices index counts (it follows the claims through its
	// own event handler): not admin access, and not a share of a device while DRAConsumableCapacity
	// keeps shares apart; with the gate off (1.34's default) a share holds its device like any
	// result, and a count without them never matched, so every PostFilter waited out the deadline.
	sharesApart := utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity)
	heldDevices := map[string]bool{}
	for i := range list.Items {
		if a := list.Items[i].Status.Allocation; a != nil {
			for _, r := range a.Devices.Results {
				if (r.AdminAccess != nil && *r.AdminAccess) || (sharesApart && r.ShareID != nil) {
					continue
				}
				heldDevices[r.Driver+"/"+r.Pool+"/"+r.Device] = true
			}
		}
	}
	held := len(heldDevices)
	waitUntil(func() bool {
		for i := range list.Items {
			want := &list.Items[i]
			got, err := dm.ResourceClaims().Get(want.Namespace, want.Name)
			if err != nil || (got.Status.Allocation == nil) != (want.Status.Allocation == nil) {
				return false
			}
		}
		devs, err := dm.ResourceClaims().ListAllAllocatedDevices()
		return err == nil && devs.Len() == held
	})
}
