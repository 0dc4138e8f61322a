/**
 * How a release accounts for a pod: its requests (upstream reads these gates where it builds PodInfo and in
 * the resource plugins): pod-level resources, a resized pod's reported resources, and how they
 * combine, and whether sidecars' host ports are taken. PodInfo is built in many places without a FeatureSet, so the simulator installs the
 * release's policy before it builds any (one simulation at a time per thread, like upstream's
 * process-wide feature gates).
 */
import type { PodRequestsOptions } from '@schedlab/k8s';
import type { FeatureSet } from '../features';

export type RequestPolicy = Pick<
  PodRequestsOptions,
  'skipPodLevelResources' | 'useStatusResources' | 'aggregateStatusResources' | 'podLevelStatusResources'
> & {
  /** Sidecars' host ports are taken on the node (nodePortsCountSidecarPorts). */
  sidecarHostPorts: boolean;
};

export function requestPolicyOf(features: FeatureSet): RequestPolicy {
  return {
    skipPodLevelResources: !features.enabled('PodLevelResources'),
    useStatusResources: features.enabled('InPlacePodVerticalScaling'),
    aggregateStatusResources: features.behaviour.resizeRequestsAggregatedPerPod,
    podLevelStatusResources: features.enabled('InPlacePodLevelResourcesVerticalScaling'),
    sidecarHostPorts: features.behaviour.nodePortsCountSidecarPorts,
  };
}

/** The newest release's policy until a simulator installs its own. */
let active: RequestPolicy = {
  skipPodLevelResources: false,
  useStatusResources: true,
  aggregateStatusResources: true,
  podLevelStatusResources: true,
  sidecarHostPorts: true,
};

export function activeRequestPolicy(): RequestPolicy {
  return active;
}

export function installRequestPolicy(features: FeatureSet): void {
  active = requestPolicyOf(features);
}
