//go:build k8s_1_37

package main

// DeviceTaintRules (resource.k8s.io/v1 from 1.37, DRADeviceTaintRules on by default): decoded as
// inputs, handed to the resource slice tracker as the scheduler does, and waited for until the
// tracker's patched slices carry every rule's taint.

import (
	"encoding/json"
	"fmt"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/kubernetes/pkg/features"
)

func parseDeviceTaintRule(c *cluster, raw json.RawMessage) error {
	o := &resourceapi.DeviceTaintRule{}
	if err := json.Unmarshal(raw, o); err != nil {
		return fmt.Errorf("DeviceTaintRule: %w", err)
	}
	if o.UID == "" {
		o.UID = uidFor("DeviceTaintRule", "", o.Name)
	}
	o.ResourceVersion = "1"
	if o.Spec.Taint.TimeAdded == nil {
		o.Spec.Taint.TimeAdded = &metav1.Time{}
	}
	c.dra = append(c.dra, o)
	return nil
}

// withDeviceTaintRules sets the tracker up as kube-scheduler 1.37 does.
func withDeviceTaintRules(opts *resourceslicetracker.Options, factory informers.SharedInformerFactory) {
	opts.EnableDeviceTaintRules = utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules)
	opts.EnableConsumableCapacity = utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity)
	if opts.EnableDeviceTaintRules {
		opts.TaintInformer = factory.Resource().V1().DeviceTaintRules()
	}
}

// taintRulesApplied: every device carries its own taints plus one per rule selecting it (the
// tracker patches slices asynchronously).
func taintRulesApplied(c *cluster, patched []*resourceapi.ResourceSlice) bool {
	if !utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules) {
		return true
	}
	var rules []*resourceapi.DeviceTaintRule
	own := map[string]int{}
	for _, o := range c.dra {
		switch t := o.(type) {
		case *resourceapi.DeviceTaintRule:
			if t.Spec.DeviceSelector != nil {
				rules = append(rules, t)
			}
		case *resourceapi.ResourceSlice:
			for _, d := range t.Spec.Devices {
				own[t.Name+"/"+d.Name] = len(d.Taints)
			}
		}
	}
	if len(rules) == 0 {
		return true
	}
	for _, s := range patched {
		for _, d := range s.Spec.Devices {
			want := own[s.Name+"/"+d.Name]
			for _, r := range rules {
				sel := r.Spec.DeviceSelector
				if (sel.Driver == nil || *sel.Driver == s.Spec.Driver) &&
					(sel.Pool == nil || *sel.Pool == s.Spec.Pool.Name) &&
					(sel.Device == nil || *sel.Device == d.Name) {
					want++
				}
			}
			if len(d.Taints) != want {
				return false
			}
		}
	}
	return true
}
