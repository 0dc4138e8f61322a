//go:build k8s_1_37

package main

import (
	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	draclaim "k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
)

// newClaimController builds the resourceclaim controller as kube-controller-manager does
// (1.37 also watches PodGroups for their claims).
func newClaimController(cs clientset.Interface, f informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	return resourceclaim.NewController(klog.Background(), cs, f.Core().V1().Pods(), f.Scheduling().V1beta1().PodGroups(),
		f.Resource().V1().ResourceClaims(), f.Resource().V1().ResourceClaimTemplates())
}

func claimIsForPod(p *v1.Pod, c *resourceapi.ResourceClaim) error {
	return draclaim.IsForPod(p, c, utilfeature.DefaultFeatureGate.Enabled(features.DRAWorkloadResourceClaims))
}

// claimControllerChecksEveryEntry: whether podNeedsWork looks past entries it cannot act on.
const claimControllerChecksEveryEntry = true
