/**
 * The storage part of `schedlab simulate`: every claim with the volume it is bound to, where that
 * volume is and how it got there (already bound, bound by the scheduler to an existing PV, or
 * provisioned for the chosen node), and @schedlab/storage's summary per StorageClass and zone.
 */
import { LABEL_HOSTNAME, namespaceOf, type Node, type PersistentVolume, type Pod } from '@schedlab/k8s';
import { volumeBinding, type ClusterObjects, type PodSchedulingResult } from '@schedlab/scheduler';
import { bytesMemo, podLookups, storageSummary, zoneMemo, type ClassStorage } from '@schedlab/storage';
import { formatTable } from './table';

const h = volumeBinding.pvHelpers;

/**
 * `pre-bound`: bound before the simulation; `static`: the scheduler bound it to an existing PV;
 * `provisioned`: created for the pod's node; `pending`: still unbound; `missing`: a pod mounts a
 * claim the cluster does not have.
 */
export type VolumeBinding = 'pre-bound' | 'static' | 'provisioned' | 'pending' | 'missing';

export interface ClaimVolume {
  /** `namespace/name` of the claim. */
  claim: string;
  storageClass: string;
  /** The bound PersistentVolume, or null while the claim is unbound (or missing). */
  volume: string | null;
  /** The volume's capacity when bound, else the claim's request. */
  capacity: string;
  requested: string;
  /** Zone(s) of the volume ("" when it names none or is unbound). */
  zone: string;
  /** The node a local volume is pinned to by hostname. */
  node?: string;
  /** Pods mounting the claim and where each runs (null: pending). */
  pods: { pod: string; node: string | null }[];
  binding: VolumeBinding;
  /** Why an unbound claim is pending. */
  reason?: string;
}

export interface StorageTotals {
  claims: number;
  /** Sum of every claim's requested storage. */
  requestedBytes: number;
  /** Requests of the bound claims, as the per-zone `claimedBytes` add up. */
  claimedBytes: number;
  /** Capacity of all PVs of the cluster's classes after scheduling. */
  provisionedBytes: number;
  pendingClaims: number;
}

/** The top-level `storage` object of the simulate document. */
export interface StorageDocument {
  totals: StorageTotals;
  volumes: ClaimVolume[];
  classes: ClassStorage[];
}

/** A pod's claims in its placement row. */
export interface PlacementVolume {
  claim: string;
  volume: string | null;
  binding: VolumeBinding;
}

export interface StorageInput {
  objects: ClusterObjects;
  nodes: readonly Node[];
  pods: readonly Pod[];
  results: readonly PodSchedulingResult[];
}

/**
 * Claim key → keys of the pods mounting it (by volume, ephemeral volumes included), each pod
 * object once. When no two pods share a key (every caller's case) this is podsByClaim's answer.
 */
function claimUsers(pods: readonly Pod[], keys: readonly string[]): Map<string, string[]> {
  const users = new Map<string, Pod[]>();
  const keyOf = new Map<Pod, string>();
  pods.forEach((pod, i) => keyOf.set(pod, keys[i]));
  for (const pod of pods) {
    const ns = namespaceOf(pod);
    for (const v of pod.spec?.volumes ?? []) {
      const claim = h.claimNameOfVolume(pod, v);
      if (!claim) continue;
      const key = `${ns}/${claim.name}`;
      const list = users.get(key) ?? [];
      if (!list.includes(pod)) list.push(pod);
      users.set(key, list);
    }
  }
  return new Map([...users].map(([claim, list]) => [claim, list.map((p) => keyOf.get(p)!)]));
}

/** How the engine bound each claim during the run (claims not listed were bound before it). */
function engineBindings(results: readonly PodSchedulingResult[]): Map<string, 'static' | 'provisioned'> {
  const how = new Map<string, 'static' | 'provisioned'>();
  for (const r of results) {
    for (const claim of Object.keys(r.volumes?.staticBindings ?? {})) how.set(claim, 'static');
    for (const claim of Object.keys(r.volumes?.provisioned ?? {})) how.set(claim, 'provisioned');
  }
  return how;
}

/** The single node a volume's affinity pins by hostname, if any (local volumes). */
function pinnedNode(pv: PersistentVolume, nodes: readonly Node[]): string | undefined {
  const names = new Set<string>();
  for (const term of pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    for (const e of term.matchExpressions ?? []) {
      if (e.key !== LABEL_HOSTNAME || e.operator !== 'In') continue;
      for (const v of e.values ?? []) {
        const node = nodes.find((n) => (n.metadata?.labels?.[LABEL_HOSTNAME] ?? n.metadata?.name) === v);
        names.add(node?.metadata?.name ?? v);
      }
    }
  }
  return names.size === 1 ? [...names][0] : undefined;
}

/** Upstream's wording for a claim a pod mounts that does not exist (VolumeBinding's PreFilter). */
const missingClaimReason = (claim: string) =>
  `persistentvolumeclaim "${claim.slice(claim.indexOf('/') + 1)}" not found`;

const mountsClaim = (pod: Pod) => pod.spec?.volumes?.some((v) => h.claimNameOfVolume(pod, v)) ?? false;

/**
 * The storage document for a run, or undefined when the cluster has no claims at all (neither
 * PVC objects nor pods mounting one).
 */
export function storageDocument(input: StorageInput): StorageDocument | undefined {
  const { objects, nodes, pods, results } = input;
  const claims = objects.persistentVolumeClaims.list();
  // A cluster without storage (most large dumps) needs none of the pod lookups below.
  if (claims.length === 0 && !pods.some(mountsClaim)) return undefined;
  // Each pod's key, where it runs, who mounts which claim and each volume's zone, worked out
  // once for the summary and the rows.
  const lookups = podLookups(pods, results);
  const { keys, placements } = lookups;
  const users = lookups.distinctKeys ? lookups.users : claimUsers(pods, keys);

  const zoneOf = zoneMemo(nodes);
  const parseBytes = bytesMemo();
  const classes = storageSummary({
    objects,
    nodes,
    pods,
    results,
    known: { placements, users: lookups.users, zoneOf },
  });
  const pendingReasons = new Map(
    classes.flatMap((c) => c.pendingClaims.map((p) => [p.claim, p.reason] as const)),
  );
  const how = engineBindings(results);

  let requestedBytes = 0;
  const volumes: ClaimVolume[] = claims.map((pvc) => {
    const claim = h.claimKey(pvc);
    requestedBytes += parseBytes(pvc.spec?.resources?.requests?.storage);
    const requested = String(pvc.spec?.resources?.requests?.storage ?? '0');
    const pv = pvc.spec?.volumeName ? objects.persistentVolumes.get(pvc.spec.volumeName) : undefined;
    const bound = pvc.status?.phase === 'Bound' && pv !== undefined;
    const row: ClaimVolume = {
      claim,
      storageClass: h.claimClass(pvc),
      volume: bound ? (pv.metadata?.name ?? '') : null,
      capacity: bound ? String(pv.spec?.capacity?.storage ?? requested) : requested,
      requested,
      zone: bound ? zoneOf(pv) : '',
      pods: (users.get(claim) ?? []).map((pod) => ({ pod, node: placements.get(pod) ?? null })),
      binding: bound ? (how.get(claim) ?? 'pre-bound') : 'pending',
    };
    const node = bound ? pinnedNode(pv, nodes) : undefined;
    if (node) row.node = node;
    if (!bound) row.reason = pendingReasons.get(claim) ?? `phase ${pvc.status?.phase ?? 'Pending'}`;
    return row;
  });
  for (const [claim, claimPods] of users) {
    // A claim key has one '/' (names have none): the store's key as it is, no split.
    const slash = claim.indexOf('/');
    if (slash >= 0 && claim.indexOf('/', slash + 1) < 0) {
      if (objects.persistentVolumeClaims.getByKey(claim)) continue;
    } else {
      const [ns, name] = claim.split('/');
      if (objects.persistentVolumeClaims.get(ns, name)) continue;
    }
    volumes.push({
      claim,
      storageClass: '',
      volume: null,
      capacity: '',
      requested: '',
      zone: '',
      pods: claimPods.map((pod) => ({ pod, node: placements.get(pod) ?? null })),
      binding: 'missing',
      reason: missingClaimReason(claim),
    });
  }
  volumes.sort((a, b) => (a.claim < b.claim ? -1 : a.claim > b.claim ? 1 : 0));

  const zones = classes.flatMap((c) => c.zones);
  const totals: StorageTotals = {
    claims: claims.length,
    requestedBytes,
    claimedBytes: zones.reduce((n, z) => n + z.claimedBytes, 0),
    provisionedBytes: zones.reduce((n, z) => n + z.provisionedBytes, 0),
    pendingClaims: volumes.filter((v) => v.binding === 'pending' || v.binding === 'missing').length,
  };
  return { totals, volumes, classes };
}

/** The claims one pod mounts, for its placement row (undefined when it mounts none). */
export function placementVolumes(
  storage: StorageDocument | undefined,
  pod: string,
): PlacementVolume[] | undefined {
  const mine = storage?.volumes.filter((v) => v.pods.some((p) => p.pod === pod)) ?? [];
  return mine.length
    ? mine.map((v) => ({ claim: v.claim, volume: v.volume, binding: v.binding }))
    : undefined;
}

/** Bytes in the largest binary unit that keeps them whole-ish, like kubectl shows quantities. */
export function formatBytes(bytes: number): string {
  const units = ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'];
  for (let i = 0; i < units.length; i++) {
    const size = 1024 ** (units.length - i);
    if (Math.abs(bytes) >= size) {
      const n = bytes / size;
      return `${Number.isInteger(n) ? n : n.toFixed(1)}${units[i]}`;
    }
  }
  return String(bytes);
}

function bindingText(v: ClaimVolume): string {
  if (v.binding === 'pending') return `pending: ${v.reason ?? ''}`;
  if (v.binding === 'missing') return `missing: ${v.reason ?? ''}`;
  return v.binding;
}

/** The "Volumes" and "Storage by class and zone" tables. */
export function formatStorageTables(storage: StorageDocument): string[] {
  const volumeRows = storage.volumes.map((v) => [
    v.claim,
    v.storageClass || (v.binding === 'missing' ? '<none>' : '""'),
    v.volume ?? '<unbound>',
    v.capacity,
    v.node ? `${v.zone || '-'} (${v.node})` : v.zone || '-',
    v.pods.length ? v.pods.map((p) => `${p.pod.split('/')[1]}@${p.node ?? '<pending>'}`).join(', ') : '-',
    bindingText(v),
  ]);
  const classRows: string[][] = [];
  for (const c of storage.classes) {
    const mode = c.volumeBindingMode ?? '<no class object>';
    for (const z of c.zones) {
      classRows.push([
        c.storageClass || '""',
        mode,
        z.zone || '-',
        formatBytes(z.claimedBytes),
        formatBytes(z.provisionedBytes),
        z.remainingBytes === undefined ? 'no limit known' : formatBytes(z.remainingBytes),
        '',
      ]);
    }
    for (const p of c.pendingClaims)
      classRows.push([c.storageClass || '""', mode, '-', '', '', '', `${p.claim}: ${p.reason}`]);
    if (c.zones.length === 0 && c.pendingClaims.length === 0)
      classRows.push([c.storageClass || '""', mode, '-', '0', '0', '', '']);
  }
  const t = storage.totals;
  return [
    '',
    'Volumes',
    ...formatTable(['CLAIM', 'CLASS', 'VOLUME', 'CAPACITY', 'ZONE (NODE)', 'PODS', 'BINDING'], volumeRows),
    '',
    'Storage by class and zone',
    ...formatTable(
      ['CLASS', 'BINDING MODE', 'ZONE', 'CLAIMED', 'PROVISIONED', 'REMAINING', 'PENDING CLAIMS'],
      classRows,
    ),
    '',
    `${t.claims} claims requesting ${formatBytes(t.requestedBytes)}: ${formatBytes(t.claimedBytes)} bound, ${t.pendingClaims} pending; ${formatBytes(t.provisionedBytes)} provisioned`,
  ];
}

/** Adds `storage` and each placement's `volumes` to a simulate document when the cluster has claims. */
export function withStorage<
  D extends { placements: { pod: string; volumes?: PlacementVolume[] }[]; storage?: StorageDocument },
>(document: D, input: StorageInput): D {
  const storage = storageDocument(input);
  if (!storage) return document;
  // placementVolumes for every pod at once: one pass over the claims, not one per placement.
  const byPod = new Map<string, PlacementVolume[]>();
  for (const v of storage.volumes) {
    for (const p of v.pods) {
      let mine = byPod.get(p.pod);
      if (!mine) byPod.set(p.pod, (mine = []));
      // A pod listed twice under one claim still mounts it once.
      if (mine[mine.length - 1]?.claim !== v.claim)
        mine.push({ claim: v.claim, volume: v.volume, binding: v.binding });
    }
  }
  for (const placement of document.placements) {
    const volumes = byPod.get(placement.pod);
    if (volumes) placement.volumes = volumes;
  }
  document.storage = storage;
  return document;
}
