//go:build k8s_1_34 || k8s_1_36

package main

// Before 1.37 DRADeviceTaintRules is off by default (and DeviceTaintRule is not in
// resource.k8s.io/v1): the scheduler reads no rules, so an input's rules are dropped.

import (
	"encoding/json"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/client-go/informers"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
)

func parseDeviceTaintRule(*cluster, json.RawMessage) error { return nil }

func withDeviceTaintRules(*resourceslicetracker.Options, informers.SharedInformerFactory) {}

func taintRulesApplied(*cluster, []*resourceapi.ResourceSlice) bool { return true }
