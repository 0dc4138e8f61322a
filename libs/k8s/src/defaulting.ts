// The subset of API-server v1 defaulting (pkg/apis/core/v1/defaults.go and friends) that changes
// scheduling outcomes. No function mutates its input: each returns a defaulted deep copy, except
// defaultNode for a node that needs no default, which it returns as it is.
import type {
  Container,
  Node,
  ObjectMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
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

function defaultContainer(c: Container, hostNetwork: boolean): void {
  // Requests default to limits per resource when only limits are given.
  const limits = c.resources?.limits;
  if (limits && Object.keys(limits).length > 0) {
    c.resources ??= {};
    const requests = (c.resources.requests ??= {});
    for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
  }
  for (const p of c.ports ?? []) {
    if (!p.protocol) p.protocol = 'TCP';
    // With host networking the container port is the host port.
    if (hostNetwork && !p.hostPort) p.hostPort = p.containerPort;
  }
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
  const podRes = (
    pod.spec as {
      resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
    }
  ).resources;
  if (!podRes?.limits || Object.keys(podRes.limits).length === 0) return;
  const requests = (podRes.requests ??= {});
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
  const out = clone(pod);
  defaultNamespace(out);
  out.spec ??= { containers: [] };
  const spec = out.spec;
  spec.containers ??= [];
  const hostNetwork = spec.hostNetwork === true;
  for (const c of spec.containers) defaultContainer(c, hostNetwork);
  for (const c of spec.initContainers ?? []) defaultContainer(c, hostNetwork);
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
