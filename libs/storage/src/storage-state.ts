/**
 * A cluster's storage over time: operations (create/delete claims, pods, StatefulSets,
 * namespaces, volumes; resize; schedule) run the PV controller after each step and record a
 * timeline of object phases, the events `kubectl describe` would show, and which volumes'
 * data each operation destroys or leaves retained but orphaned.
 */
import {
  namespaceOf,
  defaultObject,
  type KubeObject,
  type Node,
  type PersistentVolumeClaim,
  type Pod,
  type StatefulSet,
} from '@schedlab/k8s';
import {
  buildClusterState,
  podKey,
  simulate,
  volumeBinding,
  type ClusterState,
  type SimulateOptions,
  type SimulationResult,
} from '@schedlab/scheduler';
import { capacityModelErrors } from './capacity';
import {
  PV_CONTROLLER,
  expansionEvents,
  provisioningEvents,
  type EventType,
  type StorageEvent,
} from './events';
import {
  ANN_PROVISIONED_BY,
  claimObject,
  syncClaim,
  syncVolume,
  type ControllerContext,
  type ControllerOptions,
  type StorageObjectError,
  type VolumeFate,
} from './pv-controller';
import { resizeClaim as validateResize } from './resize';
import { ephemeralClaimsOf, podsOfStatefulSet, retentionPolicy, statefulSetClaims } from './workload-claims';
import { volumeMatchesNoNode, zoneOfVolume } from './topology';
import { storageSummary, type ClassStorage } from './summary';

const h = volumeBinding.pvHelpers;

export interface DataLossReport {
  /** Volumes whose data the operation destroys (deleted or scrubbed). */
  destroyed: VolumeFate[];
  /** Volumes whose data survives without a claim using them (Released, Failed, or PV object gone). */
  retained: VolumeFate[];
  /** Claims whose deletion waits for pods still using them (kubernetes.io/pvc-protection). */
  deferred: string[];
}

export interface PhaseSnapshot {
  claims: Record<string, string>;
  volumes: Record<string, string>;
}

export interface TimelineStep {
  step: number;
  operation: string;
  phases: PhaseSnapshot;
  events: StorageEvent[];
  dataLoss: DataLossReport;
  errors: StorageObjectError[];
  /** Set for `schedule` steps. */
  scheduling?: SimulationResult;
}

export type StorageStateOptions = ControllerOptions;

const emptyLoss = (): DataLossReport => ({ destroyed: [], retained: [], deferred: [] });

export class StorageState {
  readonly cluster: ClusterState;
  readonly events: StorageEvent[] = [];
  readonly timeline: TimelineStep[] = [];
  private current: TimelineStep;
  private readonly ctx: ControllerContext;

  private constructor(
    cluster: ClusterState,
    readonly options: StorageStateOptions,
  ) {
    this.cluster = cluster;
    this.current = {
      step: 0,
      operation: 'initial state',
      phases: { claims: {}, volumes: {} },
      events: [],
      dataLoss: emptyLoss(),
      errors: [],
    };
    this.ctx = {
      objects: cluster.objects,
      nodes: cluster.nodes,
      options,
      event: (object, type, reason, message, source) =>
        this.record(object, type, reason, message, source ?? PV_CONTROLLER),
      error: (e) => {
        const same = (x: StorageObjectError) => JSON.stringify(x) === JSON.stringify(e);
        if (!this.current.errors.some(same)) this.current.errors.push(e);
      },
    };
  }

  /** Builds the state from a cluster dump (API-server defaulting and default StorageClass admission apply) and runs the controller once. */
  static fromItems(items: readonly KubeObject[], options: StorageStateOptions = {}): StorageState {
    return StorageState.fromCluster(buildClusterState(items), options);
  }

  /**
   * The same from a cluster already built, which the controller changes (its PV and PVC stores).
   * `phases: false` skips the phase snapshot of the initial step, for a caller that reads only
   * the objects, events and errors (settling a dump).
   */
  static fromCluster(
    cluster: ClusterState,
    options: StorageStateOptions = {},
    { phases = true }: { phases?: boolean } = {},
  ): StorageState {
    const state = new StorageState(cluster, options);
    for (const message of capacityModelErrors(options.capacityModel)) {
      state.current.errors.push({
        kind: 'StorageClass',
        name: message.split('"')[1] ?? '',
        field: 'capacityModel',
        message,
      });
    }
    for (const pv of state.cluster.objects.persistentVolumes.list()) {
      if (volumeMatchesNoNode(pv, state.cluster.nodes)) {
        state.current.errors.push({
          kind: 'PersistentVolume',
          name: pv.metadata?.name ?? '',
          field: 'spec.nodeAffinity',
          message:
            'no node of the cluster satisfies the volume node affinity; pods using it can never be scheduled',
        });
      }
    }
    state.commit(phases);
    return state;
  }

  get nodes(): readonly Node[] {
    return this.cluster.nodes;
  }

  private record(object: string, type: EventType, reason: string, message: string, source: string): void {
    // Repeats of the same event collapse, as `kubectl describe` shows them "(xN over …)".
    const last = [...this.events].reverse().find((e) => e.object === object);
    if (last && last.reason === reason && last.message === message) return;
    const e: StorageEvent = { object, type, reason, message, source, step: this.current.step };
    this.events.push(e);
    this.current.events.push(e);
  }

  /** Runs the controller to a fixed point, snapshots phases and closes the step. */
  private commit(snapshot = true): TimelineStep {
    this.sync();
    if (snapshot) this.current.phases = this.phases();
    const done = this.current;
    this.timeline.push(done);
    this.current = {
      step: done.step + 1,
      operation: '',
      phases: { claims: {}, volumes: {} },
      events: [],
      dataLoss: emptyLoss(),
      errors: [],
    };
    return done;
  }

  private begin(operation: string): void {
    this.current.operation = operation;
  }

  private sync(): void {
    const o = this.cluster.objects;
    // Volumes first (so freed ones are Available to the claims), claims, then volumes again (claims just bound or deleted).
    this.syncVolumes();
    // Each object looked up again (an earlier sync may have replaced it) by its store key: the
    // same lookup as by its name without comparing names character by character.
    for (const [key, pvc] of [...o.persistentVolumeClaims.entries()]) {
      const fresh =
        pvc.metadata?.namespace === ''
          ? o.persistentVolumeClaims.get(h.namespaceOf(pvc), pvc.metadata.name ?? '')
          : o.persistentVolumeClaims.getByKey(key);
      if (fresh) syncClaim(this.ctx, fresh);
    }
    this.syncVolumes();
  }

  private syncVolumes(): void {
    const o = this.cluster.objects;
    for (const [name] of [...o.persistentVolumes.entries()]) {
      const fresh = o.persistentVolumes.get(name);
      if (!fresh) continue;
      const fate = syncVolume(this.ctx, fresh);
      if (fate) this.noteFate(fate);
    }
    // Volumes deleted while bound (pv-protection) go once they are no longer bound.
    for (const pv of o.persistentVolumes.list()) {
      if (pv.metadata?.deletionTimestamp && pv.status?.phase !== 'Bound') {
        o.persistentVolumes.delete(pv.metadata.name ?? '');
      }
    }
  }

  private noteFate(fate: VolumeFate): void {
    const withZone = { ...fate, zone: fate.zone ?? this.zoneOfVolumeName(fate.volume) };
    if (fate.dataDestroyed) this.current.dataLoss.destroyed.push(withZone);
    else this.current.dataLoss.retained.push(withZone);
  }

  private zoneOfVolumeName(name: string): string | undefined {
    const pv = this.cluster.objects.persistentVolumes.get(name);
    return pv ? zoneOfVolume(pv, this.cluster.nodes) || undefined : this.zones.get(name);
  }

  /** Zones of volumes seen, kept for the report after a volume is deleted. */
  private readonly zones = new Map<string, string>();

  phases(): PhaseSnapshot {
    const claims: Record<string, string> = {};
    const volumes: Record<string, string> = {};
    for (const c of this.cluster.objects.persistentVolumeClaims.list()) {
      claims[h.claimKey(c)] = c.metadata?.deletionTimestamp ? 'Terminating' : (c.status?.phase ?? 'Pending');
    }
    for (const v of this.cluster.objects.persistentVolumes.list()) {
      const zone = zoneOfVolume(v, this.cluster.nodes);
      if (zone) this.zones.set(v.metadata?.name ?? '', zone);
      volumes[v.metadata?.name ?? ''] = v.metadata?.deletionTimestamp
        ? 'Terminating'
        : (v.status?.phase ?? 'Pending');
    }
    return { claims: sortKeys(claims), volumes: sortKeys(volumes) };
  }

  private allPods(): Pod[] {
    return [...this.cluster.runningPods, ...this.cluster.pendingPods];
  }

  private claimInUse(namespace: string, name: string): boolean {
    return this.allPods().some(
      (p) =>
        namespaceOf(p) === namespace &&
        (p.spec?.volumes ?? []).some((v) => h.claimNameOfVolume(p, v)?.name === name),
    );
  }

  // ---- operations -------------------------------------------------------------------------

  createClaim(pvc: PersistentVolumeClaim): TimelineStep {
    this.begin(`create PersistentVolumeClaim ${h.claimKey(pvc)}`);
    this.addClaim(pvc);
    return this.commit();
  }

  private addClaim(pvc: PersistentVolumeClaim): void {
    const defaulted = defaultObject({
      ...pvc,
      kind: 'PersistentVolumeClaim',
      apiVersion: 'v1',
    } as never) as unknown as PersistentVolumeClaim;
    const admitted = admitDefaultClass(defaulted, this.cluster);
    if (
      this.cluster.objects.persistentVolumeClaims.get(h.namespaceOf(admitted), admitted.metadata?.name ?? '')
    )
      return;
    this.cluster.objects.persistentVolumeClaims.set(admitted);
  }

  deleteClaim(namespace: string, name: string): TimelineStep {
    this.begin(`delete PersistentVolumeClaim ${namespace}/${name}`);
    this.removeClaim(namespace, name);
    return this.commit();
  }

  private removeClaim(namespace: string, name: string): void {
    const o = this.cluster.objects;
    const pvc = o.persistentVolumeClaims.get(namespace, name);
    if (!pvc) {
      this.ctx.error({
        kind: 'PersistentVolumeClaim',
        namespace,
        name,
        field: 'metadata.name',
        message: `persistentvolumeclaims "${name}" not found`,
      });
      return;
    }
    if (this.claimInUse(namespace, name)) {
      const t = { ...pvc, metadata: { ...pvc.metadata, deletionTimestamp: `step-${this.current.step}` } };
      o.persistentVolumeClaims.set(t);
      this.current.dataLoss.deferred.push(`${namespace}/${name}`);
      return;
    }
    o.persistentVolumeClaims.delete(namespace, name);
  }

  /** Finishes deletions that waited for pods (pvc-protection). */
  private finalizeClaims(): void {
    for (const c of this.cluster.objects.persistentVolumeClaims.list()) {
      if (c.metadata?.deletionTimestamp && !this.claimInUse(h.namespaceOf(c), c.metadata.name ?? '')) {
        this.cluster.objects.persistentVolumeClaims.delete(h.namespaceOf(c), c.metadata.name ?? '');
      }
    }
  }

  createPod(pod: Pod): TimelineStep {
    this.begin(`create Pod ${podKey(pod)}`);
    this.addPod(pod);
    return this.commit();
  }

  private addPod(raw: Pod): void {
    const pod = defaultObject({ ...raw, kind: 'Pod', apiVersion: 'v1' } as never) as unknown as Pod;
    if (!pod.metadata?.uid)
      pod.metadata = { ...pod.metadata, uid: `uid-pod-${namespaceOf(pod)}-${pod.metadata?.name ?? ''}` };
    const { claims, errors } = ephemeralClaimsOf(pod, this.cluster.objects);
    for (const e of errors) this.ctx.error(e);
    for (const c of claims) this.addClaim(c);
    if (pod.spec?.nodeName) this.cluster.runningPods.push(pod);
    else this.cluster.pendingPods.push(pod);
  }

  deletePod(namespace: string, name: string): TimelineStep {
    this.begin(`delete Pod ${namespace}/${name}`);
    this.removePod(namespace, name);
    return this.commit();
  }

  private removePod(namespace: string, name: string): void {
    const match = (p: Pod) => namespaceOf(p) === namespace && p.metadata?.name === name;
    const pod = this.allPods().find(match);
    if (!pod) {
      this.ctx.error({
        kind: 'Pod',
        namespace,
        name,
        field: 'metadata.name',
        message: `pods "${name}" not found`,
      });
      return;
    }
    removeWhere(this.cluster.runningPods, match);
    removeWhere(this.cluster.pendingPods, match);
    // Generic ephemeral claims are owned by the pod: the garbage collector deletes them with it.
    for (const c of this.cluster.objects.persistentVolumeClaims.list(namespace)) {
      if ((c.metadata?.ownerReferences ?? []).some((r) => r.kind === 'Pod' && r.uid === pod.metadata?.uid)) {
        this.removeClaim(namespace, c.metadata?.name ?? '');
      }
    }
    this.finalizeClaims();
  }

  createStatefulSet(sts: StatefulSet): TimelineStep {
    const ns = namespaceOf(sts);
    this.begin(`create StatefulSet ${ns}/${sts.metadata?.name}`);
    this.cluster.objects.statefulSets.set({ ...sts, metadata: { ...sts.metadata, namespace: ns } });
    this.ensureReplicas(sts, sts.spec?.replicas ?? 1);
    return this.commit();
  }

  private ensureReplicas(sts: StatefulSet, replicas: number): void {
    for (let i = 0; i < replicas; i++) {
      for (const c of statefulSetClaims(sts, i)) this.addClaim(c);
    }
    const existing = new Set(this.allPods().map(podKey));
    for (const pod of podsOfStatefulSet(sts, replicas)) if (!existing.has(podKey(pod))) this.addPod(pod);
  }

  scaleStatefulSet(namespace: string, name: string, replicas: number): TimelineStep {
    this.begin(`scale StatefulSet ${namespace}/${name} to ${replicas}`);
    const sts = this.cluster.objects.statefulSets.get(namespace, name);
    if (!sts) {
      this.ctx.error({
        kind: 'StatefulSet',
        namespace,
        name,
        field: 'metadata.name',
        message: `statefulsets.apps "${name}" not found`,
      });
      return this.commit();
    }
    const before = sts.spec?.replicas ?? 1;
    const updated = { ...sts, spec: { ...sts.spec!, replicas } };
    this.cluster.objects.statefulSets.set(updated);
    if (replicas > before) this.ensureReplicas(updated, replicas);
    for (let i = before - 1; i >= replicas; i--) {
      this.removePod(namespace, `${name}-${i}`);
      if (retentionPolicy(sts).whenScaled === 'Delete') {
        for (const c of statefulSetClaims(sts, i))
          this.removeClaimIfPresent(namespace, c.metadata?.name ?? '');
      }
    }
    return this.commit();
  }

  private removeClaimIfPresent(namespace: string, name: string): void {
    if (this.cluster.objects.persistentVolumeClaims.get(namespace, name)) this.removeClaim(namespace, name);
  }

  deleteStatefulSet(namespace: string, name: string): TimelineStep {
    this.begin(`delete StatefulSet ${namespace}/${name}`);
    const sts = this.cluster.objects.statefulSets.get(namespace, name);
    if (!sts) {
      this.ctx.error({
        kind: 'StatefulSet',
        namespace,
        name,
        field: 'metadata.name',
        message: `statefulsets.apps "${name}" not found`,
      });
      return this.commit();
    }
    this.cluster.objects.statefulSets.delete(namespace, name);
    const replicas = sts.spec?.replicas ?? 1;
    for (let i = replicas - 1; i >= 0; i--) {
      if (this.allPods().some((p) => podKey(p) === `${namespace}/${name}-${i}`))
        this.removePod(namespace, `${name}-${i}`);
      if (retentionPolicy(sts).whenDeleted === 'Delete') {
        for (const c of statefulSetClaims(sts, i))
          this.removeClaimIfPresent(namespace, c.metadata?.name ?? '');
      }
    }
    return this.commit();
  }

  deleteNamespace(namespace: string): TimelineStep {
    this.begin(`delete Namespace ${namespace}`);
    const inNs = (p: Pod) => namespaceOf(p) === namespace;
    removeWhere(this.cluster.runningPods, inNs);
    removeWhere(this.cluster.pendingPods, inNs);
    for (const s of this.cluster.objects.statefulSets.list(namespace))
      this.cluster.objects.statefulSets.delete(namespace, s.metadata?.name ?? '');
    for (const c of this.cluster.objects.persistentVolumeClaims.list(namespace))
      this.removeClaim(namespace, c.metadata?.name ?? '');
    this.cluster.objects.namespaces.delete(namespace);
    return this.commit();
  }

  /** Deletes a PV object. A volume bound to a claim waits for it (kubernetes.io/pv-protection). */
  deleteVolume(name: string): TimelineStep {
    this.begin(`delete PersistentVolume ${name}`);
    const pv = this.cluster.objects.persistentVolumes.get(name);
    if (!pv) {
      this.ctx.error({
        kind: 'PersistentVolume',
        name,
        field: 'metadata.name',
        message: `persistentvolumes "${name}" not found`,
      });
      return this.commit();
    }
    if (pv.status?.phase === 'Bound') {
      this.cluster.objects.persistentVolumes.set({
        ...pv,
        metadata: { ...pv.metadata, deletionTimestamp: `step-${this.current.step}` },
      });
    } else {
      this.cluster.objects.persistentVolumes.delete(name);
      // Deleting the object does not delete the backing storage: it is left behind unreferenced.
      this.current.dataLoss.retained.push({
        volume: name,
        claim: pv.spec?.claimRef ? `${pv.spec.claimRef.namespace || 'default'}/${pv.spec.claimRef.name}` : '',
        storageClass: h.volumeClass(pv),
        capacity: String(pv.spec?.capacity?.storage ?? ''),
        reclaimPolicy: pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain',
        zone: zoneOfVolume(pv, this.cluster.nodes) || undefined,
        outcome: 'orphaned',
        dataDestroyed: false,
        reason:
          'the PV object is deleted; the backing volume and its data stay in the storage system, referenced by nothing',
      });
    }
    return this.commit();
  }

  /** The admin step that makes a Retained (Released) volume bindable again: clear spec.claimRef. */
  releaseVolume(name: string): TimelineStep {
    this.begin(`clear claimRef of PersistentVolume ${name}`);
    const pv = this.cluster.objects.persistentVolumes.get(name);
    if (!pv)
      this.ctx.error({
        kind: 'PersistentVolume',
        name,
        field: 'metadata.name',
        message: `persistentvolumes "${name}" not found`,
      });
    else if (pv.status?.phase === 'Bound') {
      this.ctx.error({
        kind: 'PersistentVolume',
        name,
        field: 'spec.claimRef',
        message: 'volume is Bound; delete its claim first',
      });
    } else {
      const v = JSON.parse(JSON.stringify(pv));
      delete v.spec.claimRef;
      this.cluster.objects.persistentVolumes.set(v);
    }
    return this.commit();
  }

  /** A resize request (claim spec.resources.requests.storage update), admitted and validated as the API server would. */
  resizeClaim(namespace: string, name: string, storage: string): TimelineStep {
    this.begin(`resize PersistentVolumeClaim ${namespace}/${name} to ${storage}`);
    const r = validateResize(this.cluster.objects, namespace, name, storage);
    if ('error' in r) {
      this.ctx.error({
        kind: 'PersistentVolumeClaim',
        namespace,
        name,
        field: 'spec.resources.requests.storage',
        message: r.error,
      });
    } else {
      this.cluster.objects.persistentVolumeClaims.set(r.claim);
      if (r.volume) this.cluster.objects.persistentVolumes.set(r.volume);
      const provisioner = this.cluster.objects.storageClasses.get(h.claimClass(r.claim))?.provisioner ?? '';
      const mountedOn = this.cluster.runningPods.find((p) =>
        (p.spec?.volumes ?? []).some(
          (v) => h.claimNameOfVolume(p, v)?.name === name && h.namespaceOf(p) === namespace,
        ),
      )?.spec?.nodeName;
      for (const e of expansionEvents(provisioner, r.volume?.metadata?.name ?? '', mountedOn))
        this.record(`PersistentVolumeClaim/${namespace}/${name}`, 'Normal', e.reason, e.message, e.source);
    }
    return this.commit();
  }

  /**
   * Schedules the pending pods with the engine. Volumes it provisions for WaitForFirstConsumer
   * claims get the provisioner's annotation and events; scheduled pods become running.
   */
  schedule(options: SimulateOptions = {}): TimelineStep {
    this.begin('schedule pending pods');
    const result = simulate(
      { ...this.cluster, orphanPods: [], unmodelled: [] },
      { ...options, seed: options.seed ?? this.options.seed },
    );
    for (const r of result.results) {
      const pod = this.cluster.pendingPods.find((p) => podKey(p) === r.pod);
      if (!pod || !r.node) continue;
      removeWhere(this.cluster.pendingPods, (p) => p === pod);
      this.cluster.runningPods.push({ ...pod, spec: { ...pod.spec!, nodeName: r.node } });
      for (const [claim, pvName] of Object.entries(r.volumes?.provisioned ?? {}))
        this.adoptProvisioned(claim, pvName);
    }
    for (const victim of result.results.flatMap((r) => r.victims ?? [])) {
      removeWhere(this.cluster.runningPods, (p) => podKey(p) === victim);
    }
    this.current.scheduling = result;
    return this.commit();
  }

  /** The external provisioner's part after the scheduler picked a node: annotation and events. */
  private adoptProvisioned(claim: string, pvName: string): void {
    const pv = this.cluster.objects.persistentVolumes.get(pvName);
    const [ns, name] = claim.split('/');
    const pvc = this.cluster.objects.persistentVolumeClaims.get(ns, name);
    if (!pv || !pvc) return;
    const provisioner = this.cluster.objects.storageClasses.get(h.claimClass(pvc))?.provisioner ?? '';
    this.cluster.objects.persistentVolumes.set({
      ...pv,
      metadata: {
        ...pv.metadata,
        annotations: { ...pv.metadata?.annotations, [ANN_PROVISIONED_BY]: provisioner },
      },
    });
    const obj = claimObject(pvc);
    for (const e of provisioningEvents(claim, provisioner, pvName, this.options.legacyEventWording))
      this.record(obj, 'Normal', e.reason, e.message, e.source);
  }

  /** Storage per class and zone now, with the placements and reasons of the latest scheduling step. */
  summary(): ClassStorage[] {
    const lastScheduling = [...this.timeline].reverse().find((s) => s.scheduling)?.scheduling;
    return storageSummary({
      objects: this.cluster.objects,
      nodes: this.cluster.nodes,
      pods: this.allPods(),
      results: lastScheduling?.results,
      events: this.events,
      capacityModel: this.options.capacityModel,
    });
  }

  /** Errors recorded at any step. */
  get errors(): StorageObjectError[] {
    return this.timeline.flatMap((s) => s.errors);
  }

  /** Events of one object, oldest first (what `kubectl describe` lists). */
  eventsFor(kind: 'PersistentVolumeClaim' | 'PersistentVolume', key: string): StorageEvent[] {
    return this.events.filter((e) => e.object === `${kind}/${key}`);
  }

  /** The cluster's objects as a list again (for simulate or export). */
  items(): KubeObject[] {
    const o = this.cluster.objects;
    return [
      ...this.cluster.nodes,
      ...this.allPods(),
      ...o.storageClasses.list(),
      ...o.persistentVolumes.list(),
      ...o.persistentVolumeClaims.list(),
      ...o.csiNodes.list(),
      ...o.csiDrivers.list(),
      ...o.csiStorageCapacities.list(),
    ].map((x) => x as unknown as KubeObject);
  }
}

function removeWhere<T>(arr: T[], pred: (x: T) => boolean): void {
  for (let i = arr.length - 1; i >= 0; i--) if (pred(arr[i])) arr.splice(i, 1);
}

function sortKeys(r: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(r).sort()) out[k] = r[k];
  return out;
}

/** DefaultStorageClass admission for claims created after the initial state. */
function admitDefaultClass(pvc: PersistentVolumeClaim, cluster: ClusterState): PersistentVolumeClaim {
  if (!pvc.spec || pvc.spec.storageClassName !== undefined) return pvc;
  if (pvc.metadata?.annotations?.[h.ANN_BETA_STORAGE_CLASS] !== undefined) return pvc;
  const probe = buildClusterState([
    ...cluster.objects.storageClasses.list(),
    { ...pvc, kind: 'PersistentVolumeClaim', apiVersion: 'v1' },
  ] as never);
  return probe.objects.persistentVolumeClaims.get(h.namespaceOf(pvc), pvc.metadata?.name ?? '') ?? pvc;
}
