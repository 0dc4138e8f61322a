/**
 * Storage per StorageClass and zone, to show alongside placements: what claims hold, what is
 * provisioned, what remains (when a capacity is known), where each bound volume is and which
 * pods use it, and why the pending claims are pending.
 */
import {
  podKeyOf,
  namespaceOf,
  tryParseQuantity,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
} from '@schedlab/k8s';
import type { ClusterObjects, PodSchedulingResult } from '@schedlab/scheduler';
import { volumeBinding } from '@schedlab/scheduler';
import { remainingBytes, type CapacityModel } from './capacity';
import { Messages, type StorageEvent } from './events';
import { provisioningSegments, zoneOfVolume } from './topology';

const h = volumeBinding.pvHelpers;

export interface PlacedVolume {
  claim: string;
  volume: string;
  capacity: string;
  zone: string;
  /** Pods using the claim and the node each runs on (or was placed on by the engine). */
  pods: { pod: string; node: string | null }[];
}

export interface ZoneStorage {
  zone: string;
  claimedBytes: number;
  provisionedBytes: number;
  /** Known only from a capacity model or CSIStorageCapacity. */
  remainingBytes?: number;
  volumes: PlacedVolume[];
}

export interface PendingClaim {
  claim: string;
  reason: string;
}

export interface ClassStorage {
  storageClass: string;
  provisioner?: string;
  volumeBindingMode?: string;
  zones: ZoneStorage[];
  pendingClaims: PendingClaim[];
}

export interface StorageSummaryInput {
  objects: ClusterObjects;
  nodes: readonly Node[];
  /** Pods of the cluster (running ones carry spec.nodeName). */
  pods?: readonly Pod[];
  /** The engine's results, for placements and the reasons of pods that did not fit. */
  results?: readonly PodSchedulingResult[];
  events?: readonly StorageEvent[];
  capacityModel?: CapacityModel;
}

const bytesOf = (q: unknown) => tryParseQuantity(String(q ?? '0'))?.value() ?? 0;

export function storageSummary(input: StorageSummaryInput): ClassStorage[] {
  const { objects, nodes } = input;
  const placements = new Map<string, string | null>();
  for (const p of input.pods ?? []) placements.set(podKeyOf(p), p.spec?.nodeName ?? null);
  for (const r of input.results ?? []) placements.set(r.pod, r.node);
  const users = podsByClaim(input.pods ?? []);
  const usersOf = (pvc: PersistentVolumeClaim) => users.get(h.claimKey(pvc)) ?? [];
  let lookupsOnce: PendingLookups | undefined;
  const lookups = () => (lookupsOnce ??= pendingLookups(input));

  const classNames = new Set<string>([
    ...objects.storageClasses.list().map((c) => c.metadata?.name ?? ''),
    ...objects.persistentVolumeClaims.list().map(h.claimClass),
    ...objects.persistentVolumes.list().map(h.volumeClass),
  ]);
  const out: ClassStorage[] = [];
  for (const name of [...classNames].sort()) {
    const sc = objects.storageClasses.get(name);
    const zones = new Map<string, ZoneStorage>();
    const zoneEntry = (zone: string) => {
      let z = zones.get(zone);
      if (!z) zones.set(zone, (z = { zone, claimedBytes: 0, provisionedBytes: 0, volumes: [] }));
      return z;
    };
    if (sc) for (const s of provisioningSegments(sc, nodes, objects.csiNodes.list())) zoneEntry(s.zone);
    const pvs = objects.persistentVolumes.list().filter((pv) => h.volumeClass(pv) === name);
    for (const pv of pvs)
      zoneEntry(zoneOfVolume(pv, nodes)).provisionedBytes += bytesOf(pv.spec?.capacity?.storage);
    const pending: PendingClaim[] = [];
    for (const pvc of objects.persistentVolumeClaims.list().filter((c) => h.claimClass(c) === name)) {
      const pv: PersistentVolume | undefined = pvc.spec?.volumeName
        ? objects.persistentVolumes.get(pvc.spec.volumeName)
        : undefined;
      if (pvc.status?.phase === 'Bound' && pv) {
        const zone = zoneOfVolume(pv, nodes);
        const z = zoneEntry(zone);
        z.claimedBytes += bytesOf(pvc.spec?.resources?.requests?.storage);
        z.volumes.push({
          claim: h.claimKey(pvc),
          volume: pv.metadata?.name ?? '',
          capacity: String(pv.spec?.capacity?.storage ?? ''),
          zone,
          pods: usersOf(pvc).map((pod) => ({ pod, node: placements.get(pod) ?? null })),
        });
      } else {
        pending.push({ claim: h.claimKey(pvc), reason: pendingReason(pvc, input, usersOf(pvc), lookups()) });
      }
    }
    if (sc) {
      for (const s of provisioningSegments(sc, nodes, objects.csiNodes.list())) {
        const left = remainingBytes(sc, s, objects, nodes, input.capacityModel);
        if (left !== undefined) zoneEntry(s.zone).remainingBytes = left;
      }
    }
    for (const z of zones.values()) z.volumes.sort((a, b) => (a.claim < b.claim ? -1 : 1));
    out.push({
      storageClass: name,
      ...(sc ? { provisioner: sc.provisioner, volumeBindingMode: sc.volumeBindingMode ?? 'Immediate' } : {}),
      zones: [...zones.values()].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0)),
      pendingClaims: pending,
    });
  }
  return out;
}

/**
 * Pod keys by the claim (`namespace/name`) they mount, in pod order, each pod once per claim: one
 * pass over the pods instead of one per claim (a 5,000-claim dump asked 25 million questions).
 */
function podsByClaim(pods: readonly Pod[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pod of pods) {
    const volumes = pod.spec?.volumes;
    if (!volumes?.length) continue;
    const ns = namespaceOf(pod);
    let seen: Set<string> | undefined;
    for (const v of volumes) {
      const name = h.claimNameOfVolume(pod, v)?.name;
      if (name === undefined) continue;
      const claim = `${ns}/${name}`;
      if (seen?.has(claim)) continue;
      (seen ??= new Set()).add(claim);
      const list = out.get(claim);
      if (list) list.push(podKeyOf(pod));
      else out.set(claim, [podKeyOf(pod)]);
    }
  }
  return out;
}

/** Per pod, its first result; per object, its last storage event (asked once per pending claim). */
interface PendingLookups {
  resultOf: Map<string, PodSchedulingResult>;
  lastEventOf: Map<string, StorageEvent>;
}

function pendingLookups(input: StorageSummaryInput): PendingLookups {
  const resultOf = new Map<string, PodSchedulingResult>();
  for (const r of input.results ?? []) if (!resultOf.has(r.pod)) resultOf.set(r.pod, r);
  const lastEventOf = new Map<string, StorageEvent>();
  for (const e of input.events ?? []) lastEventOf.set(e.object, e);
  return { resultOf, lastEventOf };
}

/** Why a claim is not bound: a user pod that did not fit says most; else the claim's last event; else its state. */
function pendingReason(
  pvc: PersistentVolumeClaim,
  input: StorageSummaryInput,
  users: string[],
  lookups: PendingLookups,
): string {
  for (const pod of users) {
    const r = lookups.resultOf.get(pod);
    if (r && !r.node && r.message) return `pod ${pod}: ${r.message}`;
  }
  const last = lookups.lastEventOf.get(`PersistentVolumeClaim/${h.claimKey(pvc)}`);
  if (last) return `${last.reason}: ${last.message}`;
  if (pvc.status?.phase === 'Lost') return Messages.claimLost;
  const className = h.claimClass(pvc);
  if (className && !input.objects.storageClasses.get(className))
    return Messages.storageClassNotFound(className);
  if (h.isDelayBinding(pvc, (n) => input.objects.storageClasses.get(n))) return Messages.waitForFirstConsumer;
  return `phase ${pvc.status?.phase ?? 'Pending'}`;
}
