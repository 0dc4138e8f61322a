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
  /**
   * What a caller that has them already passes in (the CLI's storage document): pod key → node
   * (placements of `pods` and `results`), claim key → its users (podsByClaim of `pods`), and the
   * zone of a volume.
   */
  known?: SummaryLookups;
}

export interface SummaryLookups {
  placements: ReadonlyMap<string, string | null>;
  users: ReadonlyMap<string, readonly string[]>;
  zoneOf: (pv: PersistentVolume) => string;
}

/** What storageSummary and the CLI's storage document ask of the pods, from one pass over them. */
export interface PodLookups {
  /** Each pod's key, by its index in `pods`. */
  keys: string[];
  /** Pod key → the node it runs on or was placed on (null: pending), results over spec.nodeName. */
  placements: Map<string, string | null>;
  /** Claim key → keys of the pods mounting it (podsByClaim). */
  users: Map<string, string[]>;
  /** No two pods share a key (so none is listed twice). */
  distinctKeys: boolean;
}

export function podLookups(pods: readonly Pod[], results: readonly PodSchedulingResult[]): PodLookups {
  const keys = new Array<string>(pods.length);
  const placements = new Map<string, string | null>();
  const users = new Map<string, string[]>();
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    const key = podKeyOf(pod);
    keys[i] = key;
    placements.set(key, pod.spec?.nodeName ?? null);
    addClaimUsers(users, pod, key);
  }
  const distinctKeys = placements.size === pods.length;
  for (const r of results) placements.set(r.pod, r.node);
  return { keys, placements, users, distinctKeys };
}

/** Each PV's zone once: a summary asks for it twice, the storage document once more. */
export function zoneMemo(nodes: readonly Node[]): (pv: PersistentVolume) => string {
  const zones = new Map<PersistentVolume, string>();
  return (pv) => {
    let z = zones.get(pv);
    if (z === undefined) zones.set(pv, (z = zoneOfVolume(pv, nodes)));
    return z;
  };
}

/** Bytes of a quantity, parsed once per distinct text (thousands of claims ask for "1Gi"). */
export function bytesMemo(): (q: unknown) => number {
  const bytes = new Map<string, number>();
  return (q) => {
    const text = String(q ?? '0');
    let b = bytes.get(text);
    if (b === undefined) bytes.set(text, (b = tryParseQuantity(text)?.value() ?? 0));
    return b;
  };
}

export function storageSummary(input: StorageSummaryInput): ClassStorage[] {
  const { objects, nodes } = input;
  const { placements, users } = input.known ?? podLookups(input.pods ?? [], input.results ?? []);
  const zoneOf = input.known?.zoneOf ?? zoneMemo(nodes);
  const bytesOf = bytesMemo();
  const usersOf = (claim: string) => users.get(claim) ?? [];
  let lookupsOnce: PendingLookups | undefined;
  const lookups = () => (lookupsOnce ??= pendingLookups(input));

  const classList = objects.storageClasses.list();
  const claimList = objects.persistentVolumeClaims.list();
  const volumeList = objects.persistentVolumes.list();
  const classNames = new Set<string>([
    ...classList.map((c) => c.metadata?.name ?? ''),
    ...claimList.map(h.claimClass),
    ...volumeList.map(h.volumeClass),
  ]);
  // With one class (the usual case) every object is of it: no filtering per class.
  const single = classNames.size === 1;
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
    const pvs = single ? volumeList : volumeList.filter((pv) => h.volumeClass(pv) === name);
    for (const pv of pvs) zoneEntry(zoneOf(pv)).provisionedBytes += bytesOf(pv.spec?.capacity?.storage);
    const pending: PendingClaim[] = [];
    for (const pvc of single ? claimList : claimList.filter((c) => h.claimClass(c) === name)) {
      const pv: PersistentVolume | undefined = pvc.spec?.volumeName
        ? objects.persistentVolumes.get(pvc.spec.volumeName)
        : undefined;
      const claim = h.claimKey(pvc);
      if (pvc.status?.phase === 'Bound' && pv) {
        const zone = zoneOf(pv);
        const z = zoneEntry(zone);
        z.claimedBytes += bytesOf(pvc.spec?.resources?.requests?.storage);
        z.volumes.push({
          claim,
          volume: pv.metadata?.name ?? '',
          capacity: String(pv.spec?.capacity?.storage ?? ''),
          zone,
          pods: usersOf(claim).map((pod) => ({ pod, node: placements.get(pod) ?? null })),
        });
      } else {
        pending.push({ claim, reason: pendingReason(pvc, input, usersOf(claim), lookups()) });
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
export function podsByClaim(pods: readonly Pod[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pod of pods) addClaimUsers(out, pod, podKeyOf(pod));
  return out;
}

/** Adds the pod (by `key`) under each claim it mounts, once per claim. */
function addClaimUsers(out: Map<string, string[]>, pod: Pod, key: string): void {
  const volumes = pod.spec?.volumes;
  if (!volumes?.length) return;
  const ns = namespaceOf(pod);
  let seen: Set<string> | undefined;
  for (const v of volumes) {
    const name = h.claimNameOfVolume(pod, v)?.name;
    if (name === undefined) continue;
    const claim = `${ns}/${name}`;
    if (seen?.has(claim)) continue;
    (seen ??= new Set()).add(claim);
    const list = out.get(claim);
    if (list) list.push(key);
    else out.set(claim, [key]);
  }
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
  users: readonly string[],
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
