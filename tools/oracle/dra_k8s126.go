//go:build k8s_1_26

package main

import (
	"encoding/json"

	v1 "k8s.io/api/core/v1"
)

// 1.26 has no resource.k8s.io/v1: DRA items are not read.
func parseDRAItem(*cluster, string, json.RawMessage) (bool, error) { return false, nil }

func (rt *runtimeEnv) draClaims(*v1.Pod) map[string][]string { return nil }

func waitForDRA(any, *cluster) {}

func installDRAReactors(*runtimeEnv) {}

func requestsDRAExtendedResource(*v1.Pod) bool { return false }

func standInDriver(*runtimeEnv) {}

func waitForClaimWrites(any, *runtimeEnv) {}

// 1.26 has no resourceclaim controller for resource.k8s.io/v1 templates.
func runClaimController(*cluster) error { return nil }
