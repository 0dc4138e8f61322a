/**
 * Well-known labels and object keys, in one place (upstream: k8s.io/api/core/v1
 * well_known_labels.go, k8s.io/component-helpers/node/topology, cache.MetaNamespaceKeyFunc).
 */
import { DEFAULT_NAMESPACE } from './defaulting';
import type { Node } from './types';

/** v1.LabelHostname. */
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
/** v1.LabelTopologyZone. */
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
/** v1.LabelTopologyRegion. */
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
/** v1.LabelFailureDomainBetaZone (deprecated, still read as a fallback). */
export const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
/** v1.LabelFailureDomainBetaRegion (deprecated, still read as a fallback). */
export const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
/** v1.LabelInstanceTypeStable. */
export const LABEL_INSTANCE_TYPE = 'node.kubernetes.io/instance-type';

type Meta = { metadata?: { namespace?: string; name?: string } };

/**
 * A namespaced object's namespace: an absent or empty `metadata.namespace` means `default`, as
 * the API server fills it in from the request's namespace.
 */
export function namespaceOf(obj: Meta): string {
  return obj.metadata?.namespace || DEFAULT_NAMESPACE;
}

/** `namespace/name` of a namespaced object (a pod, a claim…), the key pod results use. */
export function podKeyOf(obj: Meta): string {
  return `${namespaceOf(obj)}/${obj.metadata?.name ?? ''}`;
}

/** `Kind/namespace/name`: one key for objects of every namespaced kind. */
export function kindKeyOf(obj: Meta & { kind?: string }): string {
  return `${obj.kind ?? ''}/${podKeyOf(obj)}`;
}

/** A `namespace/name` or bare `name` reference as a user types it: a bare name is in `default`, as with kubectl. */
export function podKeyOfReference(reference: string): string {
  return reference.includes('/') ? reference : `${DEFAULT_NAMESPACE}/${reference}`;
}

/**
 * A node's zone: the GA topology label, else the deprecated beta one (upstream
 * topology.GetZoneKey reads them in that order, by presence); undefined when neither is set.
 */
export function zoneOf(node: Pick<Node, 'metadata'> | undefined): string | undefined {
  const labels = node?.metadata?.labels;
  return labels?.[LABEL_TOPOLOGY_ZONE] ?? labels?.[LABEL_FAILURE_DOMAIN_BETA_ZONE];
}

/** A node's region, GA label first, as zoneOf. */
export function regionOf(node: Pick<Node, 'metadata'> | undefined): string | undefined {
  const labels = node?.metadata?.labels;
  return labels?.[LABEL_TOPOLOGY_REGION] ?? labels?.[LABEL_FAILURE_DOMAIN_BETA_REGION];
}

/** Taints the node lifecycle controller puts on a node whose kubelet stopped reporting, or reports NotReady. */
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
