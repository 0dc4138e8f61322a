//go:build k8s_1_34

package main

// 1.34's claim tracker reports shares only for claims in flight (DRAConsumableCapacity is
// alpha and off): there is no informer-fed share index to wait for.
func sharesTracked(any, int) bool { return true }
