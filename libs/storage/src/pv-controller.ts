/**
 * The PV controller's claim and volume sync (upstream pkg/controller/volume/persistentvolume),
 * with the CSI external provisioner's part for Immediate binding: binds claims to existing PVs,
 * provisions Immediate claims in a topology segment chosen without regard to pods, marks lost
 * claims and released volumes, and reclaims released volumes by their policy.
 */
import {
  selectorFromLabelSelector,
  tryParseQuantity,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '@schedlab/k8s';
import type { ClusterObjects } from '@schedlab/scheduler';
import { volumeBinding } from '@schedlab/scheduler';
import { remainingBytes, type CapacityModel } from './capacity';
import { Messages, Reasons, type EventType } from './events';
import { provisioningSegments, type TopologySegment } from './topology';

const h = volumeBinding.pvHelpers;

export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';

export interface ControllerOptions {
  /** Seed of the zone choice for Immediate provisioning. Default 0. */
  seed?: number;
  capacityModel?: CapacityModel;
  /** Event wording of releases before 1.28 (the ExternalProvisioning message changed then). */
  legacyEventWording?: boolean;
}

/** A problem with one input object; the object is left as it is. */
export interface StorageObjectError {
  kind: 'PersistentVolume' | 'PersistentVolumeClaim' | 'StorageClass' | 'Pod' | 'StatefulSet' | 'Namespace';
  namespace?: string;
  name: string;
  field: string;
  message: string;
}

/** What became of a volume whose claim went away. */
export interface VolumeFate {
  volume: string;
  claim: string;
  storageClass: string;
  capacity: string;
  reclaimPolicy: string;
  zone?: string;
  outcome: 'deleted' | 'retained' | 'recycled' | 'failed' | 'orphaned';
  /** True when the data on the backing volume is destroyed. */
  dataDestroyed: boolean;
  reason: string;
}

export interface ControllerContext {
  objects: ClusterObjects;
  nodes: readonly Node[];
  options: ControllerOptions;
  event(object: string, type: EventType, reason: string, message: string, source?: string): void;
  error(e: StorageObjectError): void;
}

export const claimObject = (pvc: PersistentVolumeClaim) => `PersistentVolumeClaim/${h.claimKey(pvc)}`;
export const volumeObject = (pv: PersistentVolume) => `PersistentVolume/${pv.metadata?.name ?? ''}`;

function copy<T>(o: T): T {
  return JSON.parse(JSON.stringify(o)) as T;
}

function withAnnotations<T extends { metadata?: { annotations?: Record<string, string> } }>(
  o: T,
  ann: Record<string, string>,
): T {
  o.metadata = { ...o.metadata, annotations: { ...o.metadata?.annotations, ...ann } };
  return o;
}

function setClaimPhase(
  ctx: ControllerContext,
  pvc: PersistentVolumeClaim,
  phase: string,
): PersistentVolumeClaim {
  if (pvc.status?.phase === phase) return pvc;
  // Objects are never changed in place (every writer copies first), so the new version may
  // share the old one's metadata and spec: a deep copy of thousands of volumes cost more.
  const c = { ...pvc, status: { ...pvc.status, phase } } as PersistentVolumeClaim;
  ctx.objects.persistentVolumeClaims.set(c);
  return c;
}

function setVolumePhase(
  ctx: ControllerContext,
  pv: PersistentVolume,
  phase: string,
  message?: string,
): PersistentVolume {
  // Shares metadata and spec with the old version, as setClaimPhase does.
  const v = { ...pv, status: { phase, ...(message ? { message } : {}) } } as PersistentVolume;
  ctx.objects.persistentVolumes.set(v);
  return v;
}

/** Request bytes of a claim, or an error recorded against it. */
function claimRequest(ctx: ControllerContext, pvc: PersistentVolumeClaim): number | undefined {
  const raw = pvc.spec?.resources?.requests?.storage;
  if (raw === undefined) return 0;
  const q = tryParseQuantity(raw as string);
  if (!q) {
    ctx.error({
      kind: 'PersistentVolumeClaim',
      namespace: h.namespaceOf(pvc),
      name: pvc.metadata?.name ?? '',
      field: 'spec.resources.requests.storage',
      message: `quantity "${raw}" does not parse`,
    });
    return undefined;
  }
  return q.value();
}

/** Capacity bytes of a volume; unparsable capacities are reported (once per sync) and the volume skipped. */
function volumeBytes(ctx: ControllerContext, pv: PersistentVolume, report: boolean): number | undefined {
  const raw = pv.spec?.capacity?.storage;
  const q = tryParseQuantity((raw ?? '0') as string);
  if (!q && report) {
    ctx.error({
      kind: 'PersistentVolume',
      name: pv.metadata?.name ?? '',
      field: 'spec.capacity.storage',
      message: `quantity "${raw}" does not parse`,
    });
  }
  return q?.value();
}

/**
 * Upstream findBestMatchForClaim (controller path, no node): PVs grouped by access-mode set,
 * smallest sets first; in the first group with a match, a PV pre-bound to the claim wins, else
 * (unless binding waits for the first consumer) the smallest Available PV of the claim's class
 * that is large enough, of the same volume mode and selected by the claim's selector. Equal
 * sizes resolve to the smaller name.
 */
export function findBestMatchForClaim(
  ctx: ControllerContext,
  pvc: PersistentVolumeClaim,
  requested: number,
  delayBinding: boolean,
): PersistentVolume | undefined {
  const wanted = pvc.spec?.accessModes ?? [];
  const volumes = ctx.objects.persistentVolumes
    .list()
    .slice()
    .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  const groups = new Map<string, PersistentVolume[]>();
  for (const pv of volumes) {
    const modes = [...new Set(pv.spec?.accessModes ?? [])].sort();
    if (!wanted.every((m) => modes.includes(m))) continue;
    const key = modes.join(',');
    groups.set(key, [...(groups.get(key) ?? []), pv]);
  }
  const orderedGroups = [...groups.entries()].sort(
    ([a], [b]) => a.split(',').length - b.split(',').length || (a < b ? -1 : a > b ? 1 : 0),
  );
  const selector = pvc.spec?.selector ? safeSelector(ctx, pvc) : undefined;
  if (selector === null) return undefined;
  const requestedClass = h.claimClass(pvc);
  for (const [, group] of orderedGroups) {
    let smallest: PersistentVolume | undefined;
    let smallestBytes = 0;
    for (const pv of group) {
      const boundToThis = h.isVolumeBoundToClaim(pv, pvc);
      if (pv.spec?.claimRef && !boundToThis) continue;
      const bytes = volumeBytes(ctx, pv, false);
      if (bytes === undefined || bytes < requested) continue;
      if (h.volumeModeMismatch(pvc, pv)) continue;
      if (pv.metadata?.deletionTimestamp) continue;
      if (boundToThis) return pv;
      if (delayBinding) continue;
      if ((pv.status?.phase ?? 'Available') !== 'Available') continue;
      if (selector && !selector.matches(pv.metadata?.labels)) continue;
      if (h.volumeClass(pv) !== requestedClass) continue;
      if (smallest === undefined || bytes < smallestBytes) {
        smallest = pv;
        smallestBytes = bytes;
      }
    }
    if (smallest) return smallest;
  }
  return undefined;
}

function safeSelector(ctx: ControllerContext, pvc: PersistentVolumeClaim) {
  try {
    return selectorFromLabelSelector(pvc.spec!.selector!);
  } catch (e) {
    ctx.error({
      kind: 'PersistentVolumeClaim',
      namespace: h.namespaceOf(pvc),
      name: pvc.metadata?.name ?? '',
      field: 'spec.selector',
      message: (e as Error).message,
    });
    return null;
  }
}

/** Upstream checkVolumeSatisfyClaim: why a user-chosen volume cannot serve the claim, if it cannot. */
function volumeMismatch(
  ctx: ControllerContext,
  pvc: PersistentVolumeClaim,
  pv: PersistentVolume,
  requested: number,
): string | undefined {
  const bytes = volumeBytes(ctx, pv, true);
  if (bytes === undefined || bytes < requested) return 'requested PV is too small';
  if (h.volumeClass(pv) !== h.claimClass(pvc)) return 'storageClassName does not match';
  if (h.volumeModeMismatch(pvc, pv)) return 'incompatible volumeMode';
  if (!h.accessModesSatisfied(pvc, pv)) return 'incompatible accessMode';
  return undefined;
}

/** The API writes of a completed binding: PV claimRef and phase, claim volumeName, annotations, status. */
export function bindClaimToVolume(
  ctx: ControllerContext,
  pvc: PersistentVolumeClaim,
  pv: PersistentVolume,
): PersistentVolumeClaim {
  const v = copy(pv);
  if (!h.isVolumeBoundToClaim(pv, pvc)) withAnnotations(v, { [h.ANN_BOUND_BY_CONTROLLER]: 'yes' });
  v.spec = {
    ...v.spec,
    claimRef: {
      kind: 'PersistentVolumeClaim',
      apiVersion: 'v1',
      namespace: h.namespaceOf(pvc),
      name: pvc.metadata?.name ?? '',
      uid: h.claimUid(pvc),
    },
  };
  (v as { status?: PersistentVolume['status'] }).status = { phase: 'Bound' };
  ctx.objects.persistentVolumes.set(v);
  const c = copy(pvc);
  const userChoseVolume = !!pvc.spec?.volumeName;
  withAnnotations(c, {
    [h.ANN_BIND_COMPLETED]: 'yes',
    ...(userChoseVolume ? {} : { [h.ANN_BOUND_BY_CONTROLLER]: 'yes' }),
  });
  c.spec = { ...c.spec, volumeName: v.metadata?.name };
  (c as { status?: PersistentVolumeClaim['status'] }).status = {
    phase: 'Bound',
    accessModes: [...(v.spec?.accessModes ?? [])],
    capacity: { ...(v.spec?.capacity ?? {}) },
  };
  ctx.objects.persistentVolumeClaims.set(c);
  return c;
}

/** Deterministic, order-independent pick: FNV-1a of seed and claim key. */
export function seededIndex(seed: number, key: string, n: number): number {
  let x = 0x811c9dc5;
  for (const ch of `${seed}/${key}`) {
    x ^= ch.charCodeAt(0);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x % n;
}

function formatBytes(b: number): string {
  const gi = 1024 ** 3;
  return b % gi === 0 ? `${b / gi}Gi` : `${b}`;
}

/**
 * Immediate provisioning: the PV controller hands the claim to the external provisioner, which
 * creates a volume in one allowed topology segment with room for it (chosen by seed and claim,
 * not by any pod) and pins the PV there by node affinity.
 */
function provisionClaim(ctx: ControllerContext, pvc: PersistentVolumeClaim, requested: number): void {
  const className = h.claimClass(pvc);
  const obj = claimObject(pvc);
  const sc = ctx.objects.storageClasses.get(className);
  if (!sc) {
    ctx.event(obj, 'Warning', Reasons.ProvisioningFailed, Messages.storageClassNotFound(className));
    return;
  }
  const provisioner = sc.provisioner ?? '';
  if (!provisioner || provisioner === h.NOT_SUPPORTED_PROVISIONER) {
    ctx.event(obj, 'Warning', Reasons.ProvisioningFailed, Messages.noProvisionablePlugin(provisioner));
    return;
  }
  const annotated = withAnnotations(copy(pvc), {
    [ANN_STORAGE_PROVISIONER]: provisioner,
    [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
  });
  ctx.objects.persistentVolumeClaims.set(annotated);
  ctx.event(
    obj,
    'Normal',
    Reasons.ExternalProvisioning,
    ctx.options.legacyEventWording
      ? Messages.externalProvisioningLegacy(provisioner)
      : Messages.externalProvisioning(provisioner),
  );
  ctx.event(obj, 'Normal', Reasons.Provisioning, Messages.provisioning(h.claimKey(pvc)), provisioner);
  const segment = chooseSegment(ctx, sc, annotated, requested);
  if (typeof segment === 'string') {
    ctx.event(
      obj,
      'Warning',
      Reasons.ProvisioningFailed,
      `failed to provision volume with StorageClass "${className}": ${segment}`,
      provisioner,
    );
    return;
  }
  const pv = provisionedVolume(annotated, sc, segment);
  ctx.objects.persistentVolumes.set(pv);
  ctx.event(
    obj,
    'Normal',
    Reasons.ProvisioningSucceeded,
    Messages.provisioningSucceeded(pv.metadata!.name!),
    provisioner,
  );
  bindClaimToVolume(ctx, annotated, pv);
}

function chooseSegment(
  ctx: ControllerContext,
  sc: StorageClass,
  pvc: PersistentVolumeClaim,
  requested: number,
): TopologySegment | string {
  const all = provisioningSegments(sc, ctx.nodes, ctx.objects.csiNodes.list());
  if (all.length === 0)
    return 'no topology segment of the driver is allowed by the StorageClass allowedTopologies';
  const roomy = all.filter((s) => {
    const left = remainingBytes(sc, s, ctx.objects, ctx.nodes, ctx.options.capacityModel);
    return left === undefined || left >= requested;
  });
  if (roomy.length === 0) {
    const zones = all.map((s) => s.zone || '(no zone)').join(', ');
    return `insufficient capacity for ${formatBytes(requested)} in ${zones}`;
  }
  return roomy[seededIndex(ctx.options.seed ?? 0, h.claimKey(pvc), roomy.length)];
}

/** The PV an external provisioner creates for a claim: named after the claim's uid, pinned to the segment. */
export function provisionedVolume(
  pvc: PersistentVolumeClaim,
  sc: StorageClass,
  segment: TopologySegment | undefined,
): PersistentVolume {
  const name = `pvc-${h.claimUid(pvc)}`;
  const expressions = Object.entries(segment?.labels ?? {}).map(([key, v]) => ({
    key,
    operator: 'In',
    values: [v],
  }));
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, annotations: { [ANN_PROVISIONED_BY]: sc.provisioner ?? '' } },
    spec: {
      capacity: { storage: (pvc.spec?.resources?.requests?.storage as string | undefined) ?? '0' },
      accessModes: [...(pvc.spec?.accessModes ?? [])],
      volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
      storageClassName: sc.metadata?.name ?? '',
      persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
      ...(sc.mountOptions ? { mountOptions: [...sc.mountOptions] } : {}),
      csi: { driver: sc.provisioner ?? '', volumeHandle: name },
      ...(expressions.length > 0
        ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: expressions }] } } }
        : {}),
    },
    status: { phase: 'Pending' },
  };
}

/** Upstream syncClaim for a claim not being deleted. */
export function syncClaim(ctx: ControllerContext, pvc: PersistentVolumeClaim): void {
  if (pvc.metadata?.deletionTimestamp) return;
  const obj = claimObject(pvc);
  const volumeName = pvc.spec?.volumeName ?? '';
  if (pvc.metadata?.annotations?.[h.ANN_BIND_COMPLETED] !== undefined) {
    // Once bound, a claim only ever follows its volume.
    const pv = volumeName ? ctx.objects.persistentVolumes.get(volumeName) : undefined;
    if (!pv) {
      if (pvc.status?.phase !== 'Lost') {
        setClaimPhase(ctx, pvc, 'Lost');
        ctx.event(obj, 'Warning', Reasons.ClaimLost, Messages.claimLost);
      }
      return;
    }
    if (h.isVolumeBoundToClaim(pv, pvc)) setClaimPhase(ctx, pvc, 'Bound');
    return;
  }
  const requested = claimRequest(ctx, pvc);
  if (requested === undefined) {
    setClaimPhase(ctx, pvc, 'Pending');
    return;
  }
  if (volumeName) {
    const pv = ctx.objects.persistentVolumes.get(volumeName);
    if (!pv) {
      // The user named a volume that does not exist (yet): the claim waits for it.
      setClaimPhase(ctx, pvc, 'Pending');
      return;
    }
    if (pv.spec?.claimRef && !h.isVolumeBoundToClaim(pv, pvc)) {
      setClaimPhase(ctx, pvc, 'Pending');
      ctx.event(
        obj,
        'Warning',
        Reasons.FailedBinding,
        `volume "${volumeName}" already bound to a different claim.`,
      );
      return;
    }
    const mismatch = volumeMismatch(ctx, pvc, pv, requested);
    if (mismatch) {
      setClaimPhase(ctx, pvc, 'Pending');
      ctx.event(
        obj,
        'Warning',
        'VolumeMismatch',
        `Cannot bind to requested volume "${volumeName}": ${mismatch}`,
      );
      return;
    }
    bindClaimToVolume(ctx, pvc, pv);
    return;
  }
  const delay = h.isDelayBinding(pvc, (n) => ctx.objects.storageClasses.get(n));
  const match = findBestMatchForClaim(ctx, pvc, requested, delay);
  if (match) {
    bindClaimToVolume(ctx, pvc, match);
    return;
  }
  setClaimPhase(ctx, pvc, 'Pending');
  if (delay) ctx.event(obj, 'Normal', Reasons.WaitForFirstConsumer, Messages.waitForFirstConsumer);
  else if (!h.claimClass(pvc)) ctx.event(obj, 'Normal', Reasons.FailedBinding, Messages.noClassNoVolumes);
  else
    provisionClaim(
      ctx,
      ctx.objects.persistentVolumeClaims.get(h.namespaceOf(pvc), pvc.metadata?.name ?? '')!,
      requested,
    );
}

/** A volume created by a dynamic provisioner (annotation, or the `pvc-<claim uid>` name provisioners give). */
export function isDynamicallyProvisioned(pv: PersistentVolume): boolean {
  if (pv.metadata?.annotations?.[ANN_PROVISIONED_BY] !== undefined) return true;
  const uid = pv.spec?.claimRef?.uid;
  return !!uid && pv.metadata?.name === `pvc-${uid}`;
}

function fateOf(
  ctx: ControllerContext,
  pv: PersistentVolume,
  outcome: VolumeFate['outcome'],
  dataDestroyed: boolean,
  reason: string,
): VolumeFate {
  const ref = pv.spec?.claimRef;
  return {
    volume: pv.metadata?.name ?? '',
    claim: ref ? `${ref.namespace || 'default'}/${ref.name}` : '',
    storageClass: h.volumeClass(pv),
    capacity: String(pv.spec?.capacity?.storage ?? ''),
    reclaimPolicy: pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain',
    outcome,
    dataDestroyed,
    reason,
  };
}

/**
 * Upstream reclaimVolume for a volume whose claim is gone: Retain keeps it Released (data kept,
 * not bindable until its claimRef is cleared); Delete removes dynamically provisioned volumes
 * and their backing storage, and fails for others; Recycle scrubs NFS and hostPath volumes and
 * makes them Available again.
 */
export function reclaimVolume(ctx: ControllerContext, released: PersistentVolume): VolumeFate {
  const policy = released.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
  const obj = volumeObject(released);
  if (policy === 'Delete') {
    if (isDynamicallyProvisioned(released)) {
      ctx.objects.persistentVolumes.delete(released.metadata?.name ?? '');
      return fateOf(
        ctx,
        released,
        'deleted',
        true,
        'reclaim policy Delete: the PV and its backing volume are deleted',
      );
    }
    setVolumePhase(ctx, released, 'Failed', Messages.noDeletablePlugin);
    ctx.event(obj, 'Warning', Reasons.VolumeFailedDelete, Messages.noDeletablePlugin);
    return fateOf(
      ctx,
      released,
      'failed',
      false,
      `reclaim policy Delete failed (${Messages.noDeletablePlugin}); the data stays on a Failed PV`,
    );
  }
  if (policy === 'Recycle') {
    if (released.spec?.nfs || released.spec?.hostPath) {
      const v = copy(released);
      delete v.spec!.claimRef;
      (v as { status?: PersistentVolume['status'] }).status = { phase: 'Available' };
      ctx.objects.persistentVolumes.set(v);
      ctx.event(obj, 'Normal', Reasons.VolumeRecycled, Messages.volumeRecycled);
      return fateOf(
        ctx,
        released,
        'recycled',
        true,
        'reclaim policy Recycle (deprecated): the volume is scrubbed (rm -rf) and Available again',
      );
    }
    setVolumePhase(ctx, released, 'Failed', 'No recycler plugin found for the volume!');
    ctx.event(obj, 'Warning', Reasons.VolumeFailedRecycle, 'No recycler plugin found for the volume!');
    return fateOf(
      ctx,
      released,
      'failed',
      false,
      'reclaim policy Recycle failed (no recycler for this volume type); the data stays on a Failed PV',
    );
  }
  return fateOf(
    ctx,
    released,
    'retained',
    false,
    'reclaim policy Retain: the PV is Released with its data; it binds again only after an admin clears spec.claimRef',
  );
}

/** Upstream syncVolume. Returns the volume's fate when its claim has gone and it was reclaimed now. */
export function syncVolume(ctx: ControllerContext, pv: PersistentVolume): VolumeFate | undefined {
  volumeBytes(ctx, pv, true);
  const ref = pv.spec?.claimRef;
  const phase = pv.status?.phase;
  if (!ref || !ref.uid) {
    // Unused, or reserved for a claim the claim sync will bind.
    if (phase !== 'Available' && phase !== 'Failed') setVolumePhase(ctx, pv, 'Available');
    return undefined;
  }
  const claim = ctx.objects.persistentVolumeClaims.get(ref.namespace || 'default', ref.name ?? '');
  const claimGone = !claim || h.claimUid(claim) !== ref.uid;
  if (!claimGone) {
    if (claim!.spec?.volumeName === pv.metadata?.name && phase !== 'Bound') setVolumePhase(ctx, pv, 'Bound');
    return undefined;
  }
  if (phase === 'Released' || phase === 'Failed') return undefined;
  const released = setVolumePhase(ctx, pv, 'Released');
  return reclaimVolume(ctx, released);
}
