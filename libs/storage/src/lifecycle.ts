/**
 * Storage across a what-if: between the steps of a scenario the controllers that own claims and
 * volumes run over the cluster's objects (the garbage collector and PVC protection, then the PV
 * controller), and what they do is recorded as `kubectl describe` events plus the data each step
 * destroys or leaves retained. The report adds what the cluster is left with: volumes no
 * reachable node can attach (stranded) and WaitForFirstConsumer claims still waiting on a pod.
 */
import {
  namespaceOf,
  podKeyOf,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
  type KubeObject,
  type Node,
  type PersistentVolume,
} from '@schedlab/k8s';
import type { PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import { buildClusterState, volumeBinding, type PodSchedulingResult } from '@schedlab/scheduler';
import {
  Messages,
  Reasons,
  SCHEDULER,
  expansionEvents,
  provisioningEvents,
  type EventType,
  type StorageEvent,
} from './events';
import { ANN_PROVISIONED_BY, type StorageObjectError, type VolumeFate } from './pv-controller';
import { resizeClaim } from './resize';
import { StorageState, type PhaseSnapshot, type StorageStateOptions } from './storage-state';
import { volumeMatchesNoNode, zoneOfVolume } from './topology';

const h = volumeBinding.pvHelpers;

/** A bound volume whose data no schedulable node can reach (its nodes are gone, unreachable or not ready). */
export interface StrandedVolume {
  volume: string;
  claim: string;
  storageClass: string;
  capacity: string;
  zone?: string;
  /** Pods using the claim: they cannot run anywhere until a node of the volume comes back. */
  pods: string[];
  /** A local volume (spec.local): its data is on the disk of this node, which is gone or unreachable. */
  localTo?: string;
  reason: string;
}

/** A WaitForFirstConsumer claim still unbound: it binds only when a pod using it is scheduled. */
export interface WaitingClaim {
  claim: string;
  storageClass: string;
  pods: string[];
  reason: string;
}

export interface StorageDataLossReport {
  /** Volumes whose data was destroyed (reclaim policy Delete, or Recycle). */
  destroyed: VolumeFate[];
  /** Volumes whose data survives with no claim using it (Released under Retain, Failed, PV object gone). */
  retained: VolumeFate[];
  /** Bound volumes no reachable node can attach, now. */
  stranded: StrandedVolume[];
  /** WaitForFirstConsumer claims not bound, now. */
  waiting: WaitingClaim[];
}

/** What the storage controllers did while one step of a what-if settled. */
export interface StorageStepRecord {
  /** 0 is the cluster before the first step; step k follows the scenario's k-th step. */
  step: number;
  operation: string;
  events: StorageEvent[];
  /** Claim and volume phases once the step settled. */
  phases: PhaseSnapshot;
  /** Phases that changed in the step (`none`: not there before; `deleted`: gone after). */
  transitions: PhaseTransition[];
  destroyed: VolumeFate[];
  retained: VolumeFate[];
  /** Claims deleted while a scheduled pod still uses them: Terminating (kubernetes.io/pvc-protection). */
  deferred: string[];
  errors: StorageObjectError[];
}

export interface PhaseTransition {
  /** `PersistentVolumeClaim/<ns>/<name>` or `PersistentVolume/<name>`. */
  object: string;
  from: string;
  to: string;
}

/** One volume or claim at risk, as every data-loss table shows it. */
export interface DataLossRow {
  fate: 'destroyed' | 'retained' | 'stranded' | 'waiting';
  volume: string;
  claim: string;
  storageClass: string;
  capacity: string;
  zone: string;
  /** Reclaim policy of a destroyed or retained volume; "" otherwise. */
  policy: string;
  why: string;
}

/** The data-loss report as rows: destroyed, retained, stranded (with the pods waiting), waiting. */
export function dataLossRows(report: StorageDataLossReport): DataLossRow[] {
  const fates = (fate: 'destroyed' | 'retained', list: readonly VolumeFate[]): DataLossRow[] =>
    list.map((f) => ({
      fate,
      volume: f.volume,
      claim: f.claim,
      storageClass: f.storageClass,
      capacity: f.capacity,
      zone: f.zone ?? '',
      policy: f.reclaimPolicy,
      why: f.reason,
    }));
  return [
    ...fates('destroyed', report.destroyed),
    ...fates('retained', report.retained),
    ...report.stranded.map((s) => ({
      fate: 'stranded' as const,
      volume: s.volume,
      claim: s.claim,
      storageClass: s.storageClass,
      capacity: s.capacity,
      zone: s.zone ?? '',
      policy: '',
      why: `${s.reason}${s.pods.length ? `; waiting: ${s.pods.join(', ')}` : ''}`,
    })),
    ...report.waiting.map((w) => ({
      fate: 'waiting' as const,
      volume: '',
      claim: w.claim,
      storageClass: w.storageClass,
      capacity: '',
      zone: '',
      policy: '',
      why: w.reason,
    })),
  ];
}

export interface StorageTimeline {
  steps: StorageStepRecord[];
  dataLoss: StorageDataLossReport;
}

const STORAGE_INPUT_KINDS = new Set([
  'Node',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CSINode',
  'CSIDriver',
  'CSIStorageCapacity',
]);

const isClaim = (o: KubeObject) => o.kind === 'PersistentVolumeClaim';
const isVolume = (o: KubeObject) => o.kind === 'PersistentVolume';
const asClaim = (o: KubeObject) => o as unknown as PersistentVolumeClaim;
const asPod = (o: KubeObject) => o as unknown as Pod;

/** True when the cluster has anything for the storage controllers to look after. */
export function hasStorage(items: readonly KubeObject[]): boolean {
  return items.some((o) => isClaim(o) || isVolume(o));
}

function podsUsingClaim(items: readonly KubeObject[], namespace: string, name: string): Pod[] {
  return items
    .filter((o) => o.kind === 'Pod' && namespaceOf(o) === namespace)
    .map(asPod)
    .filter((p) => (p.spec?.volumes ?? []).some((v) => h.claimNameOfVolume(p, v)?.name === name));
}

/** PVC protection keeps a claim while a scheduled pod uses it (the kubelet may have it mounted). */
function claimProtected(items: readonly KubeObject[], namespace: string, name: string): boolean {
  return podsUsingClaim(items, namespace, name).some((p) => !!p.spec?.nodeName);
}

/** A node a pod can be placed on and its volumes attached to: not gone, not unreachable, not NotReady. */
export function nodeIsReachable(node: Node): boolean {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready && ready.status !== 'True') return false;
  return !(node.spec?.taints ?? []).some(
    (t) => t.key === TAINT_NODE_UNREACHABLE || t.key === TAINT_NODE_NOT_READY,
  );
}

export class StorageLifecycle {
  readonly steps: StorageStepRecord[] = [];
  private readonly events: StorageEvent[] = [];
  private readonly seenErrors = new Set<string>();
  /** Zone of every volume seen, for the report once a volume is deleted. */
  private readonly zones = new Map<string, string>();
  /** The storage objects as the last controller pass left them. */
  private settled: readonly KubeObject[] = [];

  /**
   * `pvController: false` (the CLI's --no-pv-controller) leaves claims and volumes as the steps
   * and the scheduler leave them: no release, no reclaim, no binding by the controller.
   */
  constructor(private readonly options: StorageStateOptions & { pvController?: boolean } = {}) {}

  private record(step: number, operation: string): StorageStepRecord {
    let r = this.steps.find((s) => s.step === step);
    if (!r) {
      r = {
        step,
        operation,
        events: [],
        phases: { claims: {}, volumes: {} },
        transitions: [],
        destroyed: [],
        retained: [],
        deferred: [],
        errors: [],
      };
      this.steps.push(r);
    }
    return r;
  }

  private event(
    step: StorageStepRecord,
    object: string,
    type: EventType,
    reason: string,
    message: string,
    source: string,
    collapse = true,
  ): void {
    // A controller's repeated sync collapses, as `kubectl describe` shows one line "(xN over …)";
    // a new binding or a pod the StatefulSet controller creates again is a new event.
    const last = [...this.events].reverse().find((e) => e.object === object);
    if (collapse && last && last.reason === reason && last.message === message) return;
    const e: StorageEvent = { object, type, reason, message, source, step: step.step };
    this.events.push(e);
    step.events.push(e);
  }

  /** Events recorded by a controller outside the storage ones (e.g. the StatefulSet controller's). */
  note(step: number, operation: string, e: Omit<StorageEvent, 'step'>): void {
    this.event(this.record(step, operation), e.object, e.type, e.reason, e.message, e.source, false);
  }

  /**
   * A user deletes a claim: it goes at once unless a scheduled pod uses it, then it stays
   * Terminating until that pod is gone. Returns the objects, or undefined when there is no such claim.
   */
  deleteClaim(
    items: readonly KubeObject[],
    namespace: string,
    name: string,
    step: number,
    operation: string,
  ): KubeObject[] | undefined {
    const claim = items.find((o) => isClaim(o) && namespaceOf(o) === namespace && o.metadata?.name === name);
    if (!claim) return undefined;
    return this.removeClaim(items, claim, this.record(step, operation));
  }

  private removeClaim(items: readonly KubeObject[], claim: KubeObject, r: StorageStepRecord): KubeObject[] {
    const ns = namespaceOf(claim);
    const name = claim.metadata?.name ?? '';
    if (!claimProtected(items, ns, name)) return items.filter((o) => o !== claim);
    if (claim.metadata?.deletionTimestamp) return [...items];
    if (!r.deferred.includes(`${ns}/${name}`)) r.deferred.push(`${ns}/${name}`);
    const terminating = {
      ...claim,
      metadata: { ...claim.metadata, deletionTimestamp: `step-${r.step}` },
    } as KubeObject;
    return items.map((o) => (o === claim ? terminating : o));
  }

  /**
   * A user raises a claim's storage request. The API server validates and admits it (or refuses
   * it: the error is returned in its words); the external resizer grows the volume, and the
   * kubelet finishes the file system resize where a pod mounts it — without such a pod the claim
   * keeps its old capacity and waits (FileSystemResizePending). The scheduler sees nothing new: a
   * bound claim is checked only against its volume's node affinity, never its size.
   */
  expandClaim(
    items: readonly KubeObject[],
    namespace: string,
    name: string,
    storage: string,
    step: number,
    operation: string,
  ): { items: KubeObject[]; mountedOn?: string } | { error: string } {
    const objects = buildClusterState(items.filter((o) => STORAGE_INPUT_KINDS.has(o.kind))).objects;
    const outcome = resizeClaim(objects, namespace, name, storage);
    if ('error' in outcome) return { error: outcome.error };
    const old = items.find((o) => isClaim(o) && namespaceOf(o) === namespace && o.metadata?.name === name);
    const volume = outcome.volume;
    const before = old && asClaim(old).spec?.resources?.requests?.storage;
    if (!old || !volume || String(before) === storage) return { items: [...items] };
    const mountedOn = podsUsingClaim(items, namespace, name).find((p) => p.spec?.nodeName)?.spec?.nodeName;
    const claim = mountedOn
      ? outcome.claim
      : {
          ...outcome.claim,
          status: {
            ...asClaim(old).status,
            conditions: [
              {
                type: 'FileSystemResizePending',
                status: 'True',
                message: Messages.fileSystemResizePending,
              },
            ],
          },
        };
    const provisioner = objects.storageClasses.get(h.claimClass(asClaim(old)))?.provisioner ?? '';
    const pvName = volume.metadata?.name ?? '';
    const r = this.record(step, operation);
    for (const e of expansionEvents(provisioner, pvName, mountedOn))
      this.event(
        r,
        `PersistentVolumeClaim/${namespace}/${name}`,
        'Normal',
        e.reason,
        e.message,
        e.source,
        false,
      );
    const next = items.map((o) =>
      o === old
        ? ({ ...old, ...claim, kind: old.kind, apiVersion: old.apiVersion } as KubeObject)
        : isVolume(o) && o.metadata?.name === pvName
          ? ({ ...o, spec: volume.spec } as KubeObject)
          : o,
    );
    return { items: next, ...(mountedOn ? { mountedOn } : {}) };
  }

  /**
   * The controllers' pass after a change: the garbage collector deletes claims whose owners are
   * all gone (a pod's generic ephemeral claims, a StatefulSet's claims under a Delete retention
   * policy), PVC protection lets Terminating claims go once no scheduled pod uses them, and the
   * PV controller releases and reclaims their volumes by policy.
   */
  reconcile(items: readonly KubeObject[], step: number, operation: string): KubeObject[] {
    if (!hasStorage(items)) return [...items];
    const r = this.record(step, operation);
    this.noteZones(items);
    let next = this.collectGarbage(items, r);
    next = next.filter(
      (o) =>
        !(
          isClaim(o) &&
          o.metadata?.deletionTimestamp &&
          !claimProtected(next, namespaceOf(o), o.metadata?.name ?? '')
        ),
    );
    const input = next.filter((o) => STORAGE_INPUT_KINDS.has(o.kind));
    // The objects are replaced, never edited, when they change: the same references as the last
    // pass left means the controller has nothing new to do.
    const unchanged = input.length === this.settled.length && input.every((o, i) => o === this.settled[i]);
    if (!hasStorage(next) || this.options.pvController === false || unchanged) {
      r.phases = phasesOf(next);
      return next;
    }
    const state = StorageState.fromItems(input, this.options);
    const pass = state.timeline[0];
    for (const e of pass.events) this.event(r, e.object, e.type, e.reason, e.message, e.source);
    const withZone = (f: VolumeFate): VolumeFate => {
      const zone = f.zone ?? this.zones.get(f.volume);
      return zone ? { ...f, zone } : f;
    };
    r.destroyed.push(...pass.dataLoss.destroyed.map(withZone));
    r.retained.push(...pass.dataLoss.retained.map(withZone));
    for (const e of pass.errors) {
      const key = JSON.stringify(e);
      if (this.seenErrors.has(key)) continue;
      this.seenErrors.add(key);
      r.errors.push(e);
    }
    const o = state.cluster.objects;
    next = replaceStorageObjects(next, [
      ...(o.persistentVolumes.list() as unknown as KubeObject[]),
      ...(o.persistentVolumeClaims.list() as unknown as KubeObject[]),
    ]);
    r.phases = phasesOf(next);
    this.settled = next.filter((o) => STORAGE_INPUT_KINDS.has(o.kind));
    return next;
  }

  private noteZones(items: readonly KubeObject[]): void {
    const nodes = items.filter((o) => o.kind === 'Node') as unknown as Node[];
    for (const pv of items.filter(isVolume) as unknown as PersistentVolume[]) {
      const zone = zoneOfVolume(pv, nodes) || zoneFromAffinity(pv);
      if (zone) this.zones.set(pv.metadata?.name ?? '', zone);
    }
  }

  private collectGarbage(items: readonly KubeObject[], r: StorageStepRecord): KubeObject[] {
    const uids = new Set(items.map((o) => o.metadata?.uid).filter(Boolean));
    const names = new Set(items.map((o) => `${o.kind}/${namespaceOf(o)}/${o.metadata?.name}`));
    let next = [...items];
    for (const claim of items.filter(isClaim)) {
      const owners = claim.metadata?.ownerReferences ?? [];
      if (owners.length === 0) continue;
      const ownerGone = (ref: { kind: string; name: string; uid?: string }) =>
        ref.uid ? !uids.has(ref.uid) : !names.has(`${ref.kind}/${namespaceOf(claim)}/${ref.name}`);
      // A dependent goes once every owner is gone (background propagation).
      if (owners.every(ownerGone)) next = this.removeClaim(next, claim, r);
    }
    return next;
  }

  /**
   * What a scheduling pass leaves on storage objects: the scheduler's Scheduled/FailedScheduling
   * events on pods with claims, and for volumes it had provisioned (WaitForFirstConsumer) the
   * provisioner's annotation and events. Returns the objects with the annotation written.
   */
  scheduled(
    items: readonly KubeObject[],
    results: readonly PodSchedulingResult[],
    step: number,
    operation: string,
  ): KubeObject[] {
    if (!hasStorage(items)) return [...items];
    const r = this.record(step, operation);
    let next = [...items];
    for (const result of results) {
      const pod = next.find((o) => o.kind === 'Pod' && podKeyOf(o) === result.pod);
      const usesClaims =
        pod && (asPod(pod).spec?.volumes ?? []).some((v) => h.claimNameOfVolume(asPod(pod), v));
      if (!usesClaims) continue;
      const object = `Pod/${result.pod}`;
      if (result.node)
        this.event(
          r,
          object,
          'Normal',
          Reasons.Scheduled,
          Messages.scheduled(result.pod, result.node),
          SCHEDULER,
          false,
        );
      else
        this.event(
          r,
          object,
          'Warning',
          Reasons.FailedScheduling,
          result.message ?? result.error ?? '',
          SCHEDULER,
        );
      for (const [claimKey, pvName] of Object.entries(result.volumes?.provisioned ?? {})) {
        const [ns, name] = claimKey.split('/');
        const claim = next.find((o) => isClaim(o) && namespaceOf(o) === ns && o.metadata?.name === name);
        const sc = claim
          ? next.find((o) => o.kind === 'StorageClass' && o.metadata?.name === h.claimClass(asClaim(claim)))
          : undefined;
        const provisioner = (sc as { provisioner?: string } | undefined)?.provisioner ?? '';
        next = next.map((o) =>
          isVolume(o) && o.metadata?.name === pvName
            ? ({
                ...o,
                metadata: {
                  ...o.metadata,
                  annotations: { ...o.metadata?.annotations, [ANN_PROVISIONED_BY]: provisioner },
                },
              } as KubeObject)
            : o,
        );
        for (const e of provisioningEvents(claimKey, provisioner, pvName, this.options.legacyEventWording))
          this.event(r, `PersistentVolumeClaim/${claimKey}`, 'Normal', e.reason, e.message, e.source);
      }
    }
    r.phases = phasesOf(next);
    return next;
  }

  /** The timeline so far and the data-loss report for the cluster `items` is now. */
  timeline(
    items: readonly KubeObject[],
    lastResults?: ReadonlyMap<string, PodSchedulingResult>,
  ): StorageTimeline {
    const steps = [...this.steps].sort((a, b) => a.step - b.step);
    let before: PhaseSnapshot = { claims: {}, volumes: {} };
    for (const s of steps) {
      s.transitions = [
        ...transitions('PersistentVolumeClaim', before.claims, s.phases.claims),
        ...transitions('PersistentVolume', before.volumes, s.phases.volumes),
      ];
      before = s.phases;
    }
    return {
      steps,
      dataLoss: {
        destroyed: steps.flatMap((s) => s.destroyed),
        retained: steps.flatMap((s) => s.retained),
        stranded: strandedVolumes(items),
        waiting: waitingClaims(items, lastResults),
      },
    };
  }
}

/** Replaces the PVs and PVCs of `items` with `storage`: survivors keep their place, new ones go last. */
export function replaceStorageObjects(
  items: readonly KubeObject[],
  storage: readonly KubeObject[],
): KubeObject[] {
  const key = (o: KubeObject) => `${o.kind}/${namespaceOf(o)}/${o.metadata?.name}`;
  const byKey = new Map(storage.map((o) => [key(o), o]));
  const out: KubeObject[] = [];
  for (const o of items) {
    if (!isClaim(o) && !isVolume(o)) out.push(o);
    else if (byKey.has(key(o))) {
      out.push(byKey.get(key(o))!);
      byKey.delete(key(o));
    }
  }
  return [...out, ...byKey.values()];
}

function transitions(
  kind: string,
  before: Record<string, string>,
  after: Record<string, string>,
): PhaseTransition[] {
  const out: PhaseTransition[] = [];
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    // Own keys only: a volume named "constructor" is not Object.prototype's.
    const from = Object.hasOwn(before, key) ? before[key] : 'none';
    const to = Object.hasOwn(after, key) ? after[key] : 'deleted';
    if (from !== to) out.push({ object: `${kind}/${key}`, from, to });
  }
  return out;
}

function phasesOf(items: readonly KubeObject[]): PhaseSnapshot {
  const claims: Record<string, string> = {};
  const volumes: Record<string, string> = {};
  const phase = (o: KubeObject) =>
    o.metadata?.deletionTimestamp
      ? 'Terminating'
      : ((o as { status?: { phase?: string } }).status?.phase ?? 'Pending');
  for (const o of items.filter(isClaim).sort(byName)) claims[h.claimKey(asClaim(o))] = phase(o);
  for (const o of items.filter(isVolume).sort(byName)) volumes[o.metadata?.name ?? ''] = phase(o);
  return { claims, volumes };
}

const byName = (a: KubeObject, b: KubeObject) => {
  const ka = `${namespaceOf(a)}/${a.metadata?.name}`;
  const kb = `${namespaceOf(b)}/${b.metadata?.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** Bound volumes whose node affinity matches no reachable node, and the pods that wait for them. */
export function strandedVolumes(items: readonly KubeObject[]): StrandedVolume[] {
  const nodes = items.filter((o) => o.kind === 'Node') as unknown as Node[];
  const reachable = nodes.filter(nodeIsReachable);
  const out: StrandedVolume[] = [];
  for (const pv of items.filter(isVolume) as unknown as PersistentVolume[]) {
    const ref = pv.spec?.claimRef;
    if (pv.status?.phase !== 'Bound' || !ref || !volumeMatchesNoNode(pv, reachable)) continue;
    const ns = ref.namespace || 'default';
    const claim = items.find((o) => isClaim(o) && namespaceOf(o) === ns && o.metadata?.name === ref.name);
    // A volume whose claim is gone is no one's data in use (the reclaim report covers it).
    if (!claim || (ref.uid && h.claimUid(asClaim(claim)) !== ref.uid)) continue;
    const matching = nodes.filter((n) => h.pvNodeAffinityMatches(pv, n.metadata?.labels));
    const zone = zoneOfVolume(pv, nodes) || zoneFromAffinity(pv);
    const localTo = localVolumeNode(pv);
    const unreachable = matching.map((n) => n.metadata?.name ?? '').sort();
    out.push({
      volume: pv.metadata?.name ?? '',
      claim: `${ns}/${ref.name}`,
      storageClass: h.volumeClass(pv),
      capacity: String(pv.spec?.capacity?.storage ?? ''),
      ...(zone ? { zone } : {}),
      pods: podsUsingClaim(items, ns, ref.name ?? '').map((p) => podKeyOf(p)),
      ...(localTo ? { localTo } : {}),
      reason: localTo
        ? `local volume: its data is on the disk of node ${localTo}, which is ${
            matching.length === 0 ? 'gone' : 'unreachable or not ready'
          }; no other node can mount it, so its pods wait for that node (if the machine is lost, so is the data)`
        : matching.length === 0
          ? 'no node of the cluster satisfies the volume node affinity: the nodes it was pinned to are gone'
          : `the volume node affinity matches only nodes that are unreachable or not ready: ${unreachable.join(', ')}`,
    });
  }
  return out.sort((a, b) => (a.claim < b.claim ? -1 : a.claim > b.claim ? 1 : 0));
}

/** The node a local volume (spec.local) lives on, from its kubernetes.io/hostname affinity. */
export function localVolumeNode(pv: PersistentVolume): string | undefined {
  if (!(pv.spec as { local?: unknown } | undefined)?.local) return undefined;
  for (const term of pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    for (const e of term.matchExpressions ?? []) {
      if (e.key === 'kubernetes.io/hostname' && e.operator === 'In' && e.values?.length === 1)
        return e.values[0];
    }
  }
  return undefined;
}

/** The zone a volume is pinned to by its affinity (kept when every node of the zone is gone). */
function zoneFromAffinity(pv: PersistentVolume): string | undefined {
  for (const term of pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    for (const e of term.matchExpressions ?? []) {
      if (/zone$/.test(e.key) && e.operator === 'In' && e.values?.length === 1) return e.values[0];
    }
  }
  return undefined;
}

/** WaitForFirstConsumer claims not bound: no pod uses them yet, or the pods using them did not fit. */
export function waitingClaims(
  items: readonly KubeObject[],
  lastResults?: ReadonlyMap<string, PodSchedulingResult>,
): WaitingClaim[] {
  const classes = new Map(
    items.filter((o) => o.kind === 'StorageClass').map((o) => [o.metadata?.name ?? '', o as never]),
  );
  const out: WaitingClaim[] = [];
  for (const claim of items.filter(isClaim).map(asClaim)) {
    if (claim.status?.phase === 'Bound' || claim.metadata?.deletionTimestamp) continue;
    if (!h.isDelayBinding(claim, (n) => classes.get(n))) continue;
    const ns = h.namespaceOf(claim);
    const pods = podsUsingClaim(items, ns, claim.metadata?.name ?? '').map((p) => podKeyOf(p));
    const failed = pods
      .map((p) => [p, lastResults?.get(p)] as const)
      .find(([, r]) => r && !r.node && (r.message || r.error));
    out.push({
      claim: h.claimKey(claim),
      storageClass: h.claimClass(claim),
      pods,
      reason: failed
        ? `pod ${failed[0]} is not scheduled: ${failed[1]!.message ?? failed[1]!.error}`
        : pods.length === 0
          ? `${Messages.waitForFirstConsumer}: no pod uses the claim`
          : Messages.waitForFirstConsumer,
    });
  }
  return out.sort((a, b) => (a.claim < b.claim ? -1 : a.claim > b.claim ? 1 : 0));
}
