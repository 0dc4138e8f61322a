// The subset of API-server v1 defaulting (pkg/apis/core/v1/defaults.go and friends) that changes
// scheduling outcomes. No function mutates its input. A pod comes back copied along the paths its
// defaults change and shares the rest with its input; a node that needs no default comes back as
// it is; the other kinds come back as defaulted deep copies.
import type {
  Container,
  ContainerPort,
  Node,
  ObjectMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodSpec,
  StorageClass,
} from './types';
import { podRequestsNanos } from './resources';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const DEFAULT_NAMESPACE = 'default';

/** Kinds that are not namespaced; everything else gets metadata.namespace defaulted. */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Node',
  'Namespace',
  'PriorityClass',
  'PersistentVolume',
  'StorageClass',
  'CSINode',
  'CSIDriver',
  'RuntimeClass',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'VolumeAttachment',
  'DeviceClass',
  'ResourceSlice',
  'DeviceTaintRule',
]);

export function isNamespacedKind(kind: string): boolean {
  return !CLUSTER_SCOPED_KINDS.has(kind);
}

/**
 * A deep copy, as structuredClone makes it, by plain recursion over the plain objects and arrays
 * parsed JSON and YAML are made of (~7× faster than structuredClone on a 27,000-object dump);
 * anything else (a Date, a Map, an object without Object.prototype) goes to structuredClone.
 */
function clone<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = clone(v[i]);
    return out as T;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return structuredClone(v);
  // A spread copies every own enumerable key at once (an own "__proto__" key stays a key, as
  // structuredClone keeps it) and gives the copy the original's hidden class; only the values
  // that are objects are then replaced by their copies, in place.
  const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
  // for…in, not Object.keys: no key array per object. With Object.prototype as the prototype it
  // visits the same keys as the spread: the own enumerable ones.
  for (const key in out) {
    const value = out[key];
    if (typeof value !== 'object' || value === null) continue;
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: clone(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = clone(value);
  }
  return out as T;
}

function defaultNamespace<T extends { metadata?: { namespace?: string } }>(obj: T): void {
  obj.metadata ??= {};
  if (!obj.metadata.namespace) obj.metadata.namespace = DEFAULT_NAMESPACE;
}

/**
 * A container with its defaults, copied only along the paths that change (its resources and
 * requests, its ports): a container that needs none comes back as it is.
 */
function defaultedContainer(c: Container, hostNetwork: boolean): Container {
  let out = c;
  // Requests default to limits per resource when only limits are given.
  const limits = c.resources?.limits;
  if (limits) {
    const requests = c.resources?.requests;
    let missing = false;
    for (const k in limits) if (!requests || !(k in requests)) missing = true;
    if (missing) {
      const filled = { ...requests };
      for (const [k, v] of Object.entries(limits)) if (!(k in filled)) filled[k] = v;
      out = { ...c, resources: { ...c.resources, requests: filled } };
    }
  }
  // With host networking the container port is the host port.
  const needsDefault = (p: ContainerPort) => !p.protocol || (hostNetwork && !p.hostPort);
  const ports = c.ports;
  if (ports?.some(needsDefault)) {
    out = {
      ...out,
      ports: ports.map((p) => {
        if (!needsDefault(p)) return p;
        const port = { ...p };
        if (!port.protocol) port.protocol = 'TCP';
        if (hostNetwork && !port.hostPort) port.hostPort = port.containerPort;
        return port;
      }),
    };
  }
  return out;
}

/** A nanos amount as a quantity string that parses back to the same amount. */
function nanosQuantity(n: bigint): string {
  if (n % 1_000_000_000n === 0n) return String(n / 1_000_000_000n);
  if (n % 1_000_000n === 0n) return `${n / 1_000_000n}m`;
  return `${n}n`;
}

/**
 * Pod-level requests (PodLevelResources), as kube-apiserver defaults them when pod-level limits
 * are set (SetDefaults_Pod's defaultPodRequests up to 1.36; PrepareForCreate's
 * DefaultPodLevelResources from 1.37, which also runs for requests alone — that adds only the
 * aggregate container requests, which count the same): a cpu/memory request missing at pod
 * level takes the containers' aggregate requests (sidecar formula, spec only), and any supported
 * resource still missing takes the pod-level limit.
 */
function defaultPodLevelRequests(pod: Pod): void {
  // pod.spec is defaultPod's own copy; its resources are the input's, so they are copied.
  const spec = pod.spec as {
    resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  };
  const podRes = spec.resources;
  if (!podRes?.limits || Object.keys(podRes.limits).length === 0) return;
  const requests: Record<string, string | number> = { ...podRes.requests };
  spec.resources = { ...podRes, requests };
  const aggregate = podRequestsNanos(pod, { skipPodLevelResources: true, excludeOverhead: true });
  for (const [k, v] of aggregate) {
    // supported pod-level resources whose overcommit is allowed: cpu and memory
    if ((k === 'cpu' || k === 'memory') && !(k in requests)) requests[k] = nanosQuantity(v);
  }
  for (const [k, v] of Object.entries(podRes.limits)) {
    if ((k === 'cpu' || k === 'memory' || k.startsWith('hugepages-')) && !(k in requests)) requests[k] = v;
  }
}

export function defaultPod(pod: Pod): Pod {
  // Copied along the paths defaulting writes (the pod, its spec, metadata for a namespace, the
  // containers that change); everything else is shared with the input, which nothing writes into.
  const out: Pod = { ...pod };
  if (!pod.metadata?.namespace) out.metadata = { ...pod.metadata, namespace: DEFAULT_NAMESPACE };
  const spec: PodSpec = pod.spec ? { ...pod.spec } : { containers: [] };
  out.spec = spec;
  const hostNetwork = spec.hostNetwork === true;
  spec.containers = spec.containers ? spec.containers.map((c) => defaultedContainer(c, hostNetwork)) : [];
  if (spec.initContainers)
    spec.initContainers = spec.initContainers.map((c) => defaultedContainer(c, hostNetwork));
  if (!spec.schedulerName) spec.schedulerName = DEFAULT_SCHEDULER_NAME;
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (spec.terminationGracePeriodSeconds === undefined) spec.terminationGracePeriodSeconds = 30;
  defaultPodLevelRequests(out);
  return out;
}

/**
 * A Node's one scheduling default (allocatable from capacity) applies only where allocatable is
 * missing: any other node comes back as it is, not copied (most of a dump's copying, and nothing
 * writes into a Node: changes to one build a new object).
 */
export function defaultNode(node: Node): Node {
  if (!node.status?.capacity || node.status.allocatable) return node;
  const out = clone(node);
  out.status!.allocatable = { ...node.status.capacity };
  return out;
}

export function defaultPersistentVolume(pv: PersistentVolume): PersistentVolume {
  const out = clone(pv);
  out.spec ??= {};
  if (!out.spec.persistentVolumeReclaimPolicy) out.spec.persistentVolumeReclaimPolicy = 'Retain';
  if (!out.spec.volumeMode) out.spec.volumeMode = 'Filesystem';
  const mutable = out as { status?: { phase?: string } };
  mutable.status ??= {};
  if (!mutable.status.phase) mutable.status.phase = 'Pending';
  return out;
}

export function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): PersistentVolumeClaim {
  const out = clone(pvc);
  defaultNamespace(out);
  out.spec ??= {};
  if (!out.spec.volumeMode) out.spec.volumeMode = 'Filesystem';
  const mutable = out as { status?: { phase?: string } };
  mutable.status ??= {};
  if (!mutable.status.phase) mutable.status.phase = 'Pending';
  return out;
}

export function defaultStorageClass(sc: StorageClass): StorageClass {
  const out = clone(sc);
  if (!out.reclaimPolicy) out.reclaimPolicy = 'Delete';
  if (!out.volumeBindingMode) out.volumeBindingMode = 'Immediate';
  return out;
}

/** Defaults any supported object by kind; unknown namespaced kinds only get their namespace. */
export function defaultObject<T extends { kind?: string; metadata?: ObjectMeta }>(obj: T): T {
  switch (obj.kind) {
    case 'Pod':
      return defaultPod(obj as unknown as Pod) as unknown as T;
    case 'Node':
      return defaultNode(obj as unknown as Node) as unknown as T;
    case 'PersistentVolume':
      return defaultPersistentVolume(obj as unknown as PersistentVolume) as unknown as T;
    case 'PersistentVolumeClaim':
      return defaultPersistentVolumeClaim(obj as unknown as PersistentVolumeClaim) as unknown as T;
    case 'StorageClass':
      return defaultStorageClass(obj as unknown as StorageClass) as unknown as T;
  }
  const out = clone(obj);
  if (obj.kind && isNamespacedKind(obj.kind)) defaultNamespace(out);
  return out;
}
