/**
 * The non-pod, non-node objects of a simulated cluster, indexed the way plugins look them up
 * (upstream's informer listers). Mutable: volume binding writes PVs and PVCs as the PV controller would.
 */
import type {
  CSIDriver,
  CSINode,
  CSIStorageCapacity,
  Namespace,
  NodeSelector,
  PersistentVolume,
  PersistentVolumeClaim,
  PodDisruptionBudget,
  PriorityClass,
  ReplicaSet,
  ReplicationController,
  Service,
  StatefulSet,
  StorageClass,
} from '@schedlab/k8s';

/** The parts of a resource.k8s.io ResourceClaim the scheduler reads here. */
export interface ResourceClaim {
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    generateName?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: unknown[];
  };
  spec?: { devices?: { requests?: DeviceRequest[] } };
  status?: { allocation?: { nodeSelector?: NodeSelector } };
}

/** One request of a claim: `exactly` (v1), the v1beta1 fields inline, or `firstAvailable`. */
export interface DeviceRequest {
  name: string;
  exactly?: { deviceClassName?: string };
  deviceClassName?: string;
  firstAvailable?: { name: string; deviceClassName?: string }[];
}

/** A ResourceClaimTemplate: the generated claim's labels, annotations and spec. */
export interface ResourceClaimTemplate {
  metadata?: { name?: string; namespace?: string };
  spec?: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec?: ResourceClaim['spec'];
  };
}

/** The parts of a ResourceSlice that say which nodes it offers devices on. */
export interface ResourceSlice {
  metadata?: { name?: string };
  spec?: { nodeName?: string; allNodes?: boolean; nodeSelector?: NodeSelector; devices?: unknown[] };
}

function nsName(obj: { metadata?: { namespace?: string; name?: string } }): string {
  return `${obj.metadata?.namespace ?? 'default'}/${obj.metadata?.name ?? ''}`;
}

/** Objects of one namespaced kind, listed per namespace in insertion order. */
export class NamespacedStore<T extends { metadata?: { namespace?: string; name?: string } }> {
  private readonly byKey = new Map<string, T>();
  /** Bumped by every set and delete, so a plugin can keep what it derived until the store changes. */
  revision = 0;

  set(obj: T): void {
    this.revision++;
    this.byKey.set(nsName(obj), obj);
  }

  get(namespace: string, name: string): T | undefined {
    return this.byKey.get(`${namespace}/${name}`);
  }

  /** get by `namespace/name` as one string, when the caller has it so already. */
  getByKey(key: string): T | undefined {
    return this.byKey.get(key);
  }

  /** `namespace/name` and object, in insertion order. */
  entries(): IterableIterator<[string, T]> {
    return this.byKey.entries();
  }

  delete(namespace: string, name: string): boolean {
    this.revision++;
    return this.byKey.delete(`${namespace}/${name}`);
  }

  /** A store holding the same objects in the same order, changed independently of this one. */
  copy(): NamespacedStore<T> {
    const c = new NamespacedStore<T>();
    for (const [k, v] of this.byKey) c.byKey.set(k, v);
    return c;
  }

  list(namespace?: string): T[] {
    const all = [...this.byKey.values()];
    return namespace === undefined
      ? all
      : all.filter((o) => (o.metadata?.namespace ?? 'default') === namespace);
  }

  get size(): number {
    return this.byKey.size;
  }
}

/** Objects of one cluster-scoped kind, by name, in insertion order. */
export class ClusterStore<T extends { metadata?: { name?: string } }> {
  private readonly byName = new Map<string, T>();
  /** Bumped by every set and delete (see NamespacedStore.revision). */
  revision = 0;

  set(obj: T): void {
    this.revision++;
    this.byName.set(obj.metadata?.name ?? '', obj);
  }

  get(name: string): T | undefined {
    return this.byName.get(name);
  }

  /** Name and object, in insertion order. */
  entries(): IterableIterator<[string, T]> {
    return this.byName.entries();
  }

  delete(name: string): boolean {
    this.revision++;
    return this.byName.delete(name);
  }

  /** A store holding the same objects in the same order, changed independently of this one. */
  copy(): ClusterStore<T> {
    const c = new ClusterStore<T>();
    for (const [k, v] of this.byName) c.byName.set(k, v);
    return c;
  }

  list(): T[] {
    return [...this.byName.values()];
  }

  get size(): number {
    return this.byName.size;
  }
}

export class ClusterObjects {
  readonly services = new NamespacedStore<Service>();
  readonly replicaSets = new NamespacedStore<ReplicaSet>();
  readonly replicationControllers = new NamespacedStore<ReplicationController>();
  readonly statefulSets = new NamespacedStore<StatefulSet>();
  readonly podDisruptionBudgets = new NamespacedStore<PodDisruptionBudget>();
  readonly persistentVolumeClaims = new NamespacedStore<PersistentVolumeClaim>();
  readonly csiStorageCapacities = new NamespacedStore<CSIStorageCapacity>();
  /** resource.k8s.io objects; claims' existence, allocations' node selectors, classes and slices. */
  readonly resourceClaims = new NamespacedStore<ResourceClaim>();
  /** What the resourceclaim controller generates pods' claims from (dynamicresources/claim-templates.ts). */
  readonly resourceClaimTemplates = new NamespacedStore<ResourceClaimTemplate>();
  readonly deviceClasses = new ClusterStore<{ metadata?: { name?: string } }>();
  readonly resourceSlices = new ClusterStore<ResourceSlice>();
  /** DRADeviceTaintRules: taints added to the devices a rule selects (dynamicresources/taint-rules.ts). */
  readonly deviceTaintRules = new ClusterStore<{ metadata?: { name?: string } }>();
  readonly persistentVolumes = new ClusterStore<PersistentVolume>();
  readonly storageClasses = new ClusterStore<StorageClass>();
  readonly csiNodes = new ClusterStore<CSINode>();
  readonly csiDrivers = new ClusterStore<CSIDriver>();
  readonly namespaces = new ClusterStore<Namespace>();
  readonly priorityClasses = new ClusterStore<PriorityClass>();

  /**
   * Objects sharing every store with these except the PVs and PVCs, which start as copies: what
   * the PV controller settles, or a cluster whose PVs and PVCs are replaced, without copying the
   * rest of a large cluster.
   */
  withOwnStorage(
    persistentVolumes = this.persistentVolumes.copy(),
    persistentVolumeClaims = this.persistentVolumeClaims.copy(),
  ): ClusterObjects {
    return Object.assign(new ClusterObjects(), this, { persistentVolumes, persistentVolumeClaims });
  }

  /** Labels of a namespace; a namespace not listed has none (affinity namespaceSelector input). */
  namespaceLabels(name: string): Record<string, string> | undefined {
    return this.namespaces.get(name)?.metadata?.labels;
  }

  /**
   * Changes as long as a claim, PV or class changes (each store's revision only grows, so their
   * sum does too): what the volume plugins date their per-pod resolutions by.
   */
  storageRevision(): number {
    return (
      this.persistentVolumeClaims.revision + this.persistentVolumes.revision + this.storageClasses.revision
    );
  }

  /** Dates a value derived from claims, PVs and classes (see `isCurrent`). */
  storageStamp(): StorageStamp {
    return { objects: this, revision: this.storageRevision() };
  }

  /** True while these objects are the stamp's and no claim, PV or class changed since. */
  isCurrent(stamp: StorageStamp): boolean {
    return stamp.objects === this && stamp.revision === this.storageRevision();
  }
}

/** Which objects a storage-derived value was computed from, and their storage revision then. */
export interface StorageStamp {
  readonly objects: ClusterObjects;
  readonly revision: number;
}
