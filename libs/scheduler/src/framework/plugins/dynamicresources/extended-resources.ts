/**
 * Extended resources backed by DRA (DRAExtendedResource: beta on from 1.36, GA in 1.37). A
 * DeviceClass with `spec.extendedResourceName`, and every class through its implicit name
 * `deviceclass.resource.kubernetes.io/<class>`, turns a pod's extended-resource request into a
 * device request: on a node that does not advertise the resource in its allocatable (no device
 * plugin), NodeResourcesFit leaves it alone and DynamicResources allocates devices of the class
 * for it through one claim per pod that the scheduler writes at binding, named
 * `<pod>-extended-resources-<5 characters>` (a hash of the pod here, as the oracle names it),
 * owned by the pod and recorded in its `status.extendedResourceClaimStatus`.
 */
import { fnv32a, isExtendedResourceName, parseQuantity, SAFE_ALPHABET, type Pod } from '@schedlab/k8s';
import type { FeatureSet } from '../../../features';
import type { ClusterObjects, ClusterStore, ResourceClaim } from '../../../backend/cache/cluster-objects';
import { podUid } from './claim-templates';

/** The prefix of a class's implicit extended resource name. */
export const DEVICE_CLASS_RESOURCE_PREFIX = 'deviceclass.resource.kubernetes.io/';
/** Marks the claim the scheduler wrote for a pod's extended resources ("true"). */
export const EXTENDED_RESOURCE_CLAIM_ANNOTATION = 'resource.kubernetes.io/extended-resource-claim';
/** The name the pod's claim has until it is written (not a valid object name on purpose). */
export const SPECIAL_CLAIM_NAME = '<extended-resources>';
/** The finalizer the scheduler adds to a claim it allocates. */
export const CLAIM_FINALIZER = 'resource.kubernetes.io/delete-protection';

/** Whether the release maps extended resources to device classes. */
export function draExtendedResourceEnabled(features: FeatureSet): boolean {
  return features.enabled('DynamicResourceAllocation') && features.enabled('DRAExtendedResource');
}

/** An extended resource name, or a class's implicit one. */
export function isDRAExtendedResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith(DEVICE_CLASS_RESOURCE_PREFIX);
}

export interface ExtendedResourceClass {
  metadata?: { name?: string; creationTimestamp?: string };
  spec?: { extendedResourceName?: string };
}

const mappings = new WeakMap<object, { revision: number; byResource: Map<string, ExtendedResourceClass> }>();

const createdAt = (c: ExtendedResourceClass): number => {
  const t = c.metadata?.creationTimestamp ? Date.parse(c.metadata.creationTimestamp) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

/**
 * Resource name to class, as kube-scheduler's extended-resource cache holds it: each class under
 * its implicit name, and under its extendedResourceName unless another class names it too, when
 * the newest class wins (the smaller name on equal creation times).
 */
export function extendedResourceClasses(
  classes: ClusterStore<{ metadata?: { name?: string } }>,
): Map<string, ExtendedResourceClass> {
  const cached = mappings.get(classes);
  if (cached && cached.revision === classes.revision) return cached.byResource;
  const byResource = new Map<string, ExtendedResourceClass>();
  for (const c of classes.list() as ExtendedResourceClass[]) {
    byResource.set(DEVICE_CLASS_RESOURCE_PREFIX + (c.metadata?.name ?? ''), c);
    const explicit = c.spec?.extendedResourceName;
    if (!explicit) continue;
    const other = byResource.get(explicit);
    if (other) {
      const newer = createdAt(c) - createdAt(other);
      if (newer < 0 || (newer === 0 && (c.metadata?.name ?? '') >= (other.metadata?.name ?? ''))) continue;
    }
    byResource.set(explicit, c);
  }
  mappings.set(classes, { revision: classes.revision, byResource });
  return byResource;
}

/** The class an extended resource maps to, when the release maps them. */
export function deviceClassForResource(
  objects: ClusterObjects,
  features: FeatureSet,
  resourceName: string,
): ExtendedResourceClass | undefined {
  if (!draExtendedResourceEnabled(features)) return undefined;
  return extendedResourceClasses(objects.deviceClasses).get(resourceName);
}

/**
 * The claim the scheduler wrote for the pod in an earlier cycle: annotated as the pod's
 * extended-resource claim and controlled by the pod (name and uid).
 */
export function findExtendedResourceClaim(
  pod: Pod,
  claims: readonly ResourceClaim[],
): ResourceClaim | undefined {
  const uid = podUid(pod);
  return claims.find(
    (c) =>
      c.metadata?.annotations?.[EXTENDED_RESOURCE_CLAIM_ANNOTATION] === 'true' &&
      ((c.metadata?.ownerReferences ?? []) as { name?: string; uid?: string; controller?: boolean }[]).some(
        (o) => o.name === pod.metadata?.name && o.controller === true && o.uid === uid,
      ),
  );
}

/** The claim kept in memory until binding writes it: no requests, owned by the pod. */
export function inMemoryExtendedResourceClaim(pod: Pod): ResourceClaim {
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      name: SPECIAL_CLAIM_NAME,
      namespace,
      uid: `uid-in-memory-${namespace}-${name}`,
      generateName: `${name}-extended-resources-`,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name, uid: podUid(pod), controller: true }],
      annotations: { [EXTENDED_RESOURCE_CLAIM_ANNOTATION]: 'true' },
    },
    spec: {},
  } as ResourceClaim;
}

const MAX_GENERATE_NAME = 58;

/**
 * The name the API server gives the written claim: generateName cut to 58 characters and 5
 * characters standing for its random ones, drawn from a hash of the pod (as for template claims).
 */
export function extendedResourceClaimName(namespace: string, podName: string): string {
  let h = fnv32a(`${namespace}/${podName}/${SPECIAL_CLAIM_NAME}`);
  let suffix = '';
  for (let i = 0; i < 5; i++) {
    suffix += SAFE_ALPHABET[h % SAFE_ALPHABET.length];
    h = Math.floor(h / SAFE_ALPHABET.length);
  }
  return `${podName}-extended-resources-`.slice(0, MAX_GENERATE_NAME) + suffix;
}

/** One device request of the pod's claim. */
export interface ExtendedDeviceRequest {
  name: string;
  exactly: { deviceClassName: string; allocationMode: 'ExactCount'; count: number };
}

/** Which request of the claim serves a container's extended resource (the pod status' mapping). */
export interface ContainerExtendedResourceRequest {
  containerName: string;
  resourceName: string;
  requestName: string;
}

interface ContainerLike {
  name: string;
  restartPolicy?: string;
  resources?: { requests?: Record<string, string | number> };
}

/** A request quantity as a whole number (AsInt64), or undefined when it is not one. */
function wholeAmount(q: string | number): number | undefined {
  try {
    const nanos = parseQuantity(q).nanos;
    if (nanos % 1_000_000_000n !== 0n) return undefined;
    return Number(nanos / 1_000_000_000n);
  } catch {
    return undefined;
  }
}

/**
 * The request (and mappings) a container needs for one resource: init containers that run to
 * completion first reuse the requests of the long-lived containers after them, then ask for the rest.
 * The request is named after the container's index among init and regular containers and the
 * resource's index among its sorted request names.
 */
function containerRequest(
  index: number,
  container: ContainerLike,
  resource: string,
  className: string,
  reusable: readonly (ExtendedDeviceRequest | undefined)[],
): { request?: ExtendedDeviceRequest; mappings: ContainerExtendedResourceRequest[] } {
  const requests = container.resources?.requests;
  const mappings: ContainerExtendedResourceRequest[] = [];
  if (!requests || !(resource in requests)) return { mappings };
  const wanted = wholeAmount(requests[resource]);
  if (wanted === undefined || wanted === 0) return { mappings };
  let sum = 0;
  for (const r of reusable) {
    if (!r) continue;
    sum += r.exactly.count;
    mappings.push({ containerName: container.name, resourceName: resource, requestName: r.name });
    if (sum >= wanted) return { mappings };
  }
  const keys = Object.keys(requests).sort();
  const name = `container-${index}-request-${Math.max(0, keys.indexOf(resource))}`;
  mappings.push({ containerName: container.name, resourceName: resource, requestName: name });
  return {
    request: {
      name,
      exactly: { deviceClassName: className, allocationMode: 'ExactCount', count: wanted - sum },
    },
    mappings,
  };
}

/**
 * The device requests of the pod's claim for the resources DRA must provide on a node, sorted by
 * name, and the container mappings (per resource: long-lived containers', then the init
 * containers', whose requests collapse into the largest one).
 */
export function extendedResourceRequests(
  pod: Pod,
  resources: Iterable<string>,
  classOf: (resource: string) => ExtendedResourceClass | undefined,
): { requests: ExtendedDeviceRequest[]; mappings: ContainerExtendedResourceRequest[] } {
  const init = (pod.spec?.initContainers ?? []) as ContainerLike[];
  const containers = [...init, ...((pod.spec?.containers ?? []) as ContainerLike[])];
  const shortLived: number[] = [];
  const longLived: number[] = [];
  containers.forEach((c, i) => {
    if (i < init.length && c.restartPolicy !== 'Always') shortLived.push(i);
    else longLived.push(i);
  });
  const requests: ExtendedDeviceRequest[] = [];
  const mappings: ContainerExtendedResourceRequest[] = [];
  for (const resource of [...resources].sort()) {
    const cls = classOf(resource);
    if (!cls) continue;
    const className = cls.metadata?.name ?? '';
    const longRequests: (ExtendedDeviceRequest | undefined)[] = new Array(containers.length).fill(undefined);
    const longMappings: ContainerExtendedResourceRequest[] = [];
    for (const i of longLived) {
      const r = containerRequest(i, containers[i], resource, className, []);
      longRequests[i] = r.request;
      longMappings.push(...r.mappings);
    }
    let largest: ExtendedDeviceRequest | undefined;
    const shortNames = new Set<string>();
    const shortMappings: ContainerExtendedResourceRequest[] = [];
    for (const i of shortLived) {
      const r = containerRequest(i, containers[i], resource, className, longRequests.slice(i));
      if (r.request) {
        shortNames.add(r.request.name);
        if (!largest || largest.exactly.count < r.request.exactly.count) largest = r.request;
      }
      shortMappings.push(...r.mappings);
    }
    if (largest && shortNames.size > 1) {
      shortNames.delete(largest.name);
      for (const m of shortMappings) if (shortNames.has(m.requestName)) m.requestName = largest.name;
    }
    if (largest) requests.push(largest);
    for (const r of longRequests) if (r) requests.push(r);
    mappings.push(...longMappings, ...shortMappings);
  }
  requests.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { requests, mappings };
}
