/**
 * A scenario's storage record as every output shows it (the CLI's documents, a run's stored
 * result): the steps where something happened to a claim or volume, with their events in
 * `kubectl describe` columns, and the data-loss report.
 */
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim } from '@schedlab/k8s';
import { volumeBinding } from '@schedlab/scheduler';
import {
  localVolumeNode,
  zoneOfVolume,
  type PhaseTransition,
  type StorageDataLossReport,
} from '@schedlab/storage';
import type { ScenarioRun } from './run';

const h = volumeBinding.pvHelpers;

export interface StorageStepReport {
  /** The step's index in the scenario; null for the cluster before the first step. */
  index: number | null;
  operation: string;
  events: { object: string; type: string; reason: string; from: string; message: string }[];
  transitions: PhaseTransition[];
  /** Claims deleted while a scheduled pod uses them (Terminating until it is gone). */
  deferred: string[];
}

/** A PersistentVolume once the last step settled, in `kubectl get pv` / `describe pv` terms. */
export interface StorageVolumeState {
  name: string;
  /** `ns/name` of spec.claimRef (a Released volume keeps it); null when unclaimed. */
  claim: string | null;
  phase: string;
  reclaimPolicy: string;
  storageClass: string;
  capacity: string;
  /** The zone(s) its node affinity (or zone label) pins it to, comma-separated; null when none. */
  zone: string | null;
  /** Its required node affinity, one `kubectl describe pv` term each (`key in [v1, v2]`). */
  nodeAffinity: string[];
  /** The node whose disk holds a local volume (spec.local); null otherwise. */
  localTo: string | null;
}

/** A PersistentVolumeClaim once the last step settled. */
export interface StorageClaimState {
  namespace: string;
  name: string;
  /** Pending, Bound, Lost, or Terminating while kubernetes.io/pvc-protection holds it. */
  phase: string;
  volume: string | null;
  storageClass: string;
  /** spec.resources.requests.storage. */
  request: string;
  /** Why a WaitForFirstConsumer claim is still unbound (the data-loss report's `waiting`); else null. */
  waitingReason: string | null;
}

export interface StorageReport {
  timeline: StorageStepReport[];
  dataLoss: StorageDataLossReport;
  /** Every volume and claim the cluster is left with, sorted by name. */
  volumes: StorageVolumeState[];
  claims: StorageClaimState[];
}

const phaseOf = (o: { status?: { phase?: string }; metadata?: { deletionTimestamp?: string } }) =>
  o.metadata?.deletionTimestamp ? 'Terminating' : (o.status?.phase ?? 'Pending');

/** A node selector term as `kubectl describe pv` prints it: requirements joined by ", ". */
function describeTerm(term: {
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
  matchFields?: { key: string; operator: string; values?: string[] }[];
}): string {
  return [...(term.matchExpressions ?? []), ...(term.matchFields ?? [])]
    .map((r) =>
      r.values?.length
        ? `${r.key} ${r.operator.toLowerCase()} [${r.values.join(', ')}]`
        : `${r.key} ${r.operator.toLowerCase()}`,
    )
    .join(', ');
}

/** The volumes and claims of a cluster, with what the data-loss report says about waiting claims. */
export function storageInventory(
  items: readonly KubeObject[],
  dataLoss?: StorageDataLossReport,
): { volumes: StorageVolumeState[]; claims: StorageClaimState[] } {
  const nodes = items.filter((o) => o.kind === 'Node') as unknown as Node[];
  const waiting = new Map((dataLoss?.waiting ?? []).map((w) => [w.claim, w.reason]));
  const byName = (a: { name: string }, b: { name: string }) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  const volumes = (items.filter((o) => o.kind === 'PersistentVolume') as unknown as PersistentVolume[])
    .map((pv): StorageVolumeState => {
      const ref = pv.spec?.claimRef;
      return {
        name: pv.metadata?.name ?? '',
        claim: ref ? `${ref.namespace || 'default'}/${ref.name}` : null,
        phase: phaseOf(pv),
        reclaimPolicy: pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain',
        storageClass: h.volumeClass(pv),
        capacity: String(pv.spec?.capacity?.storage ?? ''),
        zone: zoneOfVolume(pv, nodes) || null,
        nodeAffinity: (pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []).map(describeTerm),
        localTo: localVolumeNode(pv) ?? null,
      };
    })
    .sort(byName);
  const claims = (
    items.filter((o) => o.kind === 'PersistentVolumeClaim') as unknown as PersistentVolumeClaim[]
  )
    .map((c): StorageClaimState => ({
      namespace: h.namespaceOf(c),
      name: c.metadata?.name ?? '',
      phase: phaseOf(c),
      volume: c.spec?.volumeName || null,
      storageClass: h.claimClass(c),
      request: String(c.spec?.resources?.requests?.storage ?? ''),
      waitingReason: waiting.get(h.claimKey(c)) ?? null,
    }))
    .sort((a, b) => byName({ name: `${a.namespace}/${a.name}` }, { name: `${b.namespace}/${b.name}` }));
  return { volumes, claims };
}

/** Undefined when the cluster never had a claim or volume. */
export function storageReport(run: ScenarioRun): StorageReport | undefined {
  if (!run.storage) return undefined;
  return {
    timeline: run.storage.steps
      .filter((s) => s.events.length > 0 || s.transitions.length > 0 || s.deferred.length > 0)
      .map((s) => ({
        index: s.step === 0 ? null : s.step - 1,
        operation: s.operation,
        events: s.events.map((e) => ({
          object: e.object,
          type: e.type,
          reason: e.reason,
          from: e.source,
          message: e.message,
        })),
        transitions: s.transitions,
        deferred: s.deferred,
      })),
    dataLoss: run.storage.dataLoss,
    ...storageInventory(run.world.items, run.storage.dataLoss),
  };
}
