//go:build k8s_1_34 || k8s_1_36 || k8s_1_37

package main

// Dynamic resource allocation inputs (DeviceClass, ResourceSlice, ResourceClaim and
// ResourceClaimTemplate of resource.k8s.io/v1) and the claims' allocations as DynamicResources' PreBind
// wrote them through the fake API.

import (
	"context"
	"encoding/json"
	"fmt"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
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

// draClaims reports, per claim of the pod ("ns/name"), the devices its allocation
// holds after PreBind: "request driver/pool/device", with " admin" for admin access.
func (rt *runtimeEnv) draClaims(pod *v1.Pod) map[string][]string {
	if len(pod.Spec.ResourceClaims) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, pc := range pod.Spec.ResourceClaims {
		// A template's claim is the one the resourceclaim controller recorded in the status.
		claimName, _, err := resourceclaim.Name(pod, &pc)
		if err != nil || claimName == nil || *claimName == "" {
			continue
		}
		name := *claimName
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
			devices = append(devices, d)
		}
		out[pod.Namespace+"/"+name] = devices
	}
	return out
}

// waitForDRA waits until the DRA manager's caches (the claims' assume cache, its
// allocated-devices index and the slice tracker) hold every input object: their event
// handlers run after the informers report synced.
func waitForDRA(f framework.Framework, c *cluster) {
	dm := f.SharedDRAManager()
	if dm == nil {
		return
	}
	var claims, slices, allocated int
	for _, o := range c.dra {
		switch t := o.(type) {
		case *resourceapi.ResourceClaim:
			claims++
			if t.Status.Allocation != nil {
				for _, r := range t.Status.Allocation.Devices.Results {
					// Shares of a device (consumable capacity) are tracked apart from the
					// devices a claim holds whole, so they are not waited for here.
					if (r.AdminAccess == nil || !*r.AdminAccess) && r.ShareID == nil {
						allocated++
					}
				}
			}
		case *resourceapi.ResourceSlice:
			slices++
		}
	}
	waitUntil(func() bool {
		cl, err := dm.ResourceClaims().List()
		if err != nil || len(cl) < claims {
			return false
		}
		sl, err := dm.ResourceSlices().ListWithDeviceTaintRules()
		if err != nil || len(sl) < slices || !taintRulesApplied(c, sl) {
			return false
		}
		devs, err := dm.ResourceClaims().ListAllAllocatedDevices()
		return err == nil && devs.Len() >= allocated
	})
}
