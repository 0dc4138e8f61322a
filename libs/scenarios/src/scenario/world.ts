/**
 * The mutable state a scenario runs against: the cluster's objects, a clock, the scheduler
 * profile in force, and pending NoExecute eviction deadlines. The scheduler is always running:
 * `schedulePending` is one pass of it over every pending pod, with full engine fidelity, and
 * writes the bindings back into the objects.
 */
import { podKeyOf, SeededRandom, type KubeObject, type Node, type Pod } from '@schedlab/k8s';
import {
  buildClusterState,
  createSimulator,
  setupEngine,
  summarizeClusterDevices,
} from '@schedlab/scheduler';
import type {
  DeviceClassSummary,
  EngineSetup,
  PodSchedulingResult,
  SimulateOptions,
} from '@schedlab/scheduler';
import { StorageLifecycle, replaceStorageObjects } from '@schedlab/storage';
import { releaseDeviceClaims, withPassClaims } from './device-claims';

export type EngineOptions = Omit<SimulateOptions, 'onProgress'>;

export type ChangeType =
  | 'nodeAdded'
  | 'nodeRemoved'
  | 'nodeUpdated'
  | 'podEvicted'
  | 'podDeleted'
  | 'podRecreated'
  | 'podLost'
  | 'podIgnored'
  | 'podCreated'
  | 'podScheduled'
  | 'podUnschedulable'
  | 'podPreempted'
  | 'evictionRefused'
  | 'disruptionBudgetViolated'
  | 'objectApplied'
  | 'objectDeleted'
  | 'objectScaled'
  | 'objectUpdated'
  | 'unsupported'
  | 'objectRejected'
  | 'profileChanged'
  | 'timeAdvanced';

export interface Change {
  type: ChangeType;
  /** "Node/name", "namespace/name" for pods, "Kind/namespace/name" for other objects. */
  object: string;
  detail?: string;
}

export const nodeNameOf = (n: { metadata?: { name?: string } }): string => n.metadata?.name ?? '';

export class World {
  items: KubeObject[];
  /** Seconds since the scenario started. */
  clock = 0;
  /** pod key → clock at which the taint manager evicts it. */
  readonly noExecuteDeadlines = new Map<string, number>();
  /** The latest scheduling result of each pod that went through the scheduler. */
  readonly lastResults = new Map<string, PodSchedulingResult>();
  /** The storage controllers' record of the scenario (timeline, data loss). */
  readonly storage: StorageLifecycle;
  /** The step the storage controllers' events are recorded against (0: before the first step). */
  storageStep = { step: 0, operation: 'initial state' };
  /** Claims created during the scenario, for uids no earlier claim of the same name had. */
  claimsCreated = 0;
  /** Pods a controller recreated in place, so each incarnation gets its own uid. */
  podsRecreated = 0;
  private setup?: EngineSetup;
  private sequence = 0;
  private readonly rng: SeededRandom;

  constructor(
    items: readonly KubeObject[],
    public engine: EngineOptions = {},
    /** false: the PV controller does not run between steps (--no-pv-controller). */
    pvController = true,
  ) {
    this.items = items.map((i) => structuredClone(i));
    this.rng = new SeededRandom(engine.seed ?? 0);
    this.storage = new StorageLifecycle({ seed: engine.seed ?? 0, pvController });
  }

  /** The storage controllers' pass (garbage collection, PVC protection, PV controller) over the objects. */
  reconcileStorage(): void {
    this.items = this.storage.reconcile(this.items, this.storageStep.step, this.storageStep.operation);
  }

  /**
   * The resourceclaim controller and garbage collector: reservations of pods that went away are
   * dropped, claims nobody reserves any more deallocated, generated claims of gone pods deleted.
   */
  reconcileDeviceClaims(): void {
    this.items = releaseDeviceClaims(this.items);
  }

  /** Devices per class and node as the claims in the world hold them (empty without DeviceClasses). */
  devices(): DeviceClassSummary[] {
    return summarizeClusterDevices(this.items, this.engineSetup());
  }

  setEngine(engine: EngineOptions): void {
    this.engine = engine;
    this.setup = undefined;
  }

  /** Deterministic uniform [0,1) from the scenario's seed. */
  random(): number {
    return this.rng.next();
  }

  nodes(): Node[] {
    return this.items.filter((i) => i.kind === 'Node') as unknown as Node[];
  }

  node(name: string): Node | undefined {
    return this.nodes().find((n) => nodeNameOf(n) === name);
  }

  pods(): Pod[] {
    return this.items.filter((i) => i.kind === 'Pod') as unknown as Pod[];
  }

  pod(key: string): Pod | undefined {
    return this.pods().find((p) => podKeyOf(p) === key);
  }

  podsOn(nodeName: string): Pod[] {
    return this.pods().filter((p) => p.spec?.nodeName === nodeName);
  }

  pendingPods(): Pod[] {
    return this.pods().filter((p) => !p.spec?.nodeName);
  }

  ofKind<T>(kind: string): T[] {
    return this.items.filter((i) => i.kind === kind) as unknown as T[];
  }

  add(obj: KubeObject | Node | Pod): void {
    this.items.push(obj as KubeObject);
  }

  /** Replaces `old` (by identity) with `next`, keeping its position. */
  replace(old: object, next: object): void {
    const i = this.items.indexOf(old as KubeObject);
    if (i < 0) throw new Error('internal: replaced object is not in the world');
    this.items[i] = next as KubeObject;
  }

  remove(obj: object): void {
    const i = this.items.indexOf(obj as KubeObject);
    if (i >= 0) this.items.splice(i, 1);
  }

  engineSetup(): EngineSetup {
    return (this.setup ??= setupEngine(this.engine));
  }

  /**
   * One scheduler pass over every pending pod in queue order. Bound pods get spec.nodeName;
   * preemption victims are deleted through `onVictim` (their controllers may recreate them).
   */
  schedulePending(onVictim: (pod: Pod) => void): PodSchedulingResult[] {
    const cluster = buildClusterState(this.items);
    if (cluster.pendingPods.length === 0) return [];
    const sim = createSimulator(cluster, this.engineSetup(), this.engine);
    const results: PodSchedulingResult[] = [];
    let volumesBound = false;
    for (const pod of sim.queueOrder(cluster.pendingPods)) {
      const r = sim.scheduleOne(pod, this.sequence++);
      results.push(r);
      volumesBound ||= r.volumes !== undefined;
      this.lastResults.set(r.pod, r);
      for (const victimKey of r.victims ?? []) {
        const victim = this.pod(victimKey);
        if (victim) onVictim(victim);
      }
      if (r.node) {
        const current = this.pod(r.pod);
        if (current)
          this.replace(current, {
            ...current,
            spec: { ...current.spec!, nodeName: r.node },
            status: { ...current.status, phase: 'Running' },
          });
      }
    }
    // The claims the controller generated and DynamicResources allocated and reserved stay, as
    // the API server would keep them, with the claim names recorded in the pods' status.
    if (
      cluster.objects.resourceClaims.list().length > 0 ||
      this.items.some((i) => i.kind === 'ResourceClaim')
    )
      this.items = withPassClaims(this.items, sim.objects.resourceClaims.list() as unknown as KubeObject[], [
        ...cluster.pendingPods,
        ...cluster.runningPods,
      ]);
    // VolumeBinding's PreBind bound claims or provisioned volumes: the cluster keeps them.
    if (volumesBound)
      this.items = replaceStorageObjects(this.items, [
        ...(sim.objects.persistentVolumes.list() as unknown as KubeObject[]),
        ...(sim.objects.persistentVolumeClaims.list() as unknown as KubeObject[]),
      ]);
    this.items = this.storage.scheduled(
      this.items,
      results,
      this.storageStep.step,
      this.storageStep.operation,
    );
    return results;
  }
}
