//go:build k8s_1_36 || k8s_1_37

package main

// From 1.36 the DRA manager keeps the shares of devices that allow multiple allocations
// (DRAConsumableCapacity) in an index of its own, filled by the claim informer's handler
// like the allocated devices: the replay waits for it too, else a first pod can be
// scheduled before a running claim's share of a device is counted.

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/kubernetes/pkg/features"
)

// sharesTracked reports whether the claim tracker's allocated state holds at least n shares.
func sharesTracked(claims any, n int) bool {
	if n == 0 || !utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity) {
		return true
	}
	g, ok := claims.(interface {
		GatherAllocatedState() (*structured.AllocatedState, error)
	})
	if !ok {
		return true
	}
	st, err := g.GatherAllocatedState()
	return err == nil && st.AllocatedSharedDeviceIDs.Len() >= n
}
