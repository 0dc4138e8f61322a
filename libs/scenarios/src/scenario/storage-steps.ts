/**
 * The storage steps of a scenario (deletePVC, deleteNamespace, setReclaimPolicy, expandPVC,
 * setStorageCapacity; nodeLoss names the local volumes a lost node takes with it) and the
 * StatefulSet controller's part in claims: claims for new ordinals, and the claims of condemned
 * ordinals handed to their pods under `whenScaled: Delete` so the garbage collector removes them.
 * What happens to the volumes afterwards is the PV controller's (World.reconcileStorage).
 */
import {
  CLUSTER_SCOPED_KINDS,
  namespaceOf,
  podKeyOf,
  selectorFromLabelSelector,
  tryParseQuantity,
  zoneOf,
} from '@schedlab/k8s';
import type { KubeObject, OwnerReference, PersistentVolume, Pod, StatefulSet } from '@schedlab/k8s';
import {
  localVolumeNode,
  Messages,
  Reasons,
  STATEFULSET_CONTROLLER,
  retentionPolicy,
  statefulSetClaimName,
  statefulSetClaims,
} from '@schedlab/storage';
import { StepError } from './nodes';
import type { OperationContext } from './operations';
import type { StepArgs } from './schema';
import type { World } from './world';

const ordinalOf = (name: string): number => Number(/-(\d+)$/.exec(name)?.[1] ?? -1);

function note(world: World, object: string, reason: string, message: string): void {
  world.storage.note(world.storageStep.step, world.storageStep.operation, {
    object,
    type: 'Normal',
    reason,
    message,
    source: STATEFULSET_CONTROLLER,
  });
}

export function deleteClaim(args: StepArgs['deletePVC'], ctx: OperationContext): void {
  const { world } = ctx;
  const ns = args.namespace ?? 'default';
  const next = world.storage.deleteClaim(
    world.items,
    ns,
    args.name,
    world.storageStep.step,
    world.storageStep.operation,
  );
  if (!next)
    throw new StepError('name', `persistentvolumeclaims "${args.name}" not found in namespace "${ns}"`);
  world.items = next;
  const terminating = next.some(
    (o) =>
      o.kind === 'PersistentVolumeClaim' &&
      namespaceOf(o) === ns &&
      o.metadata?.name === args.name &&
      o.metadata?.deletionTimestamp,
  );
  ctx.changes.push({
    type: 'objectDeleted',
    object: `PersistentVolumeClaim/${ns}/${args.name}`,
    detail: terminating
      ? 'Terminating: a scheduled pod still uses it (kubernetes.io/pvc-protection)'
      : undefined,
  });
}

/** The namespace controller deletes everything in the namespace; controllers go with their pods. */
export function deleteNamespace(args: StepArgs['deleteNamespace'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  const ns = args.name;
  const inNamespace = world.items.filter((o) => !CLUSTER_SCOPED_KINDS.has(o.kind) && namespaceOf(o) === ns);
  const namespace = world.items.find((o) => o.kind === 'Namespace' && o.metadata?.name === ns);
  if (inNamespace.length === 0 && !namespace) throw new StepError('name', `namespaces "${ns}" not found`);
  for (const o of inNamespace.filter((x) => x.kind === 'Pod')) {
    world.remove(o);
    world.noExecuteDeadlines.delete(podKeyOf(o));
    changes.push({ type: 'podDeleted', object: podKeyOf(o), detail: `namespace ${ns} deleted` });
  }
  for (const o of inNamespace.filter((x) => x.kind !== 'Pod' && x.kind !== 'PersistentVolumeClaim')) {
    world.remove(o);
    changes.push({ type: 'objectDeleted', object: `${o.kind}/${ns}/${o.metadata?.name}` });
  }
  for (const claim of inNamespace.filter((x) => x.kind === 'PersistentVolumeClaim')) {
    deleteClaim({ namespace: ns, name: claim.metadata?.name ?? '' }, ctx);
  }
  if (namespace) {
    world.remove(namespace);
    changes.push({ type: 'objectDeleted', object: `Namespace/${ns}` });
  }
}

/**
 * A StorageClass's reclaimPolicy is copied to each volume it provisions and cannot be updated;
 * a PersistentVolume's own policy can. Replacing the class changes only volumes provisioned later.
 */
export function setReclaimPolicy(args: StepArgs['setReclaimPolicy'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  if ((args.storageClass === undefined) === (args.volume === undefined))
    throw new StepError('storageClass', 'give either storageClass or volume');
  if (args.volume !== undefined) {
    const pv = world.items.find((o) => o.kind === 'PersistentVolume' && o.metadata?.name === args.volume) as
      (KubeObject & PersistentVolume) | undefined;
    if (!pv) throw new StepError('volume', `persistentvolumes "${args.volume}" not found`);
    const before = pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
    world.replace(pv, { ...pv, spec: { ...pv.spec, persistentVolumeReclaimPolicy: args.reclaimPolicy } });
    changes.push({
      type: 'objectUpdated',
      object: `PersistentVolume/${args.volume}`,
      detail: `persistentVolumeReclaimPolicy ${before} → ${args.reclaimPolicy}`,
    });
    return;
  }
  const name = args.storageClass!;
  const sc = world.items.find((o) => o.kind === 'StorageClass' && o.metadata?.name === name) as
    (KubeObject & { reclaimPolicy?: string }) | undefined;
  if (!sc) throw new StepError('storageClass', `storageclasses.storage.k8s.io "${name}" not found`);
  const before = sc.reclaimPolicy ?? 'Delete';
  if (before === args.reclaimPolicy) {
    changes.push({
      type: 'objectUpdated',
      object: `StorageClass/${name}`,
      detail: 'reclaimPolicy unchanged',
    });
    return;
  }
  if (!args.replace) {
    changes.push({
      type: 'objectRejected',
      object: `StorageClass/${name}`,
      detail: `The StorageClass "${name}" is invalid: reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.`,
    });
    return;
  }
  world.replace(sc, { ...sc, reclaimPolicy: args.reclaimPolicy });
  const kept = world.items.filter(
    (o) =>
      o.kind === 'PersistentVolume' &&
      (o as unknown as PersistentVolume).spec?.storageClassName === name &&
      ((o as unknown as PersistentVolume).spec?.persistentVolumeReclaimPolicy ?? 'Retain') !==
        args.reclaimPolicy,
  ).length;
  changes.push({
    type: 'objectUpdated',
    object: `StorageClass/${name}`,
    detail: `replaced (deleted and created): reclaimPolicy ${before} → ${args.reclaimPolicy} for volumes provisioned from now on; ${kept} existing volume(s) keep ${before}`,
  });
}

/**
 * Before a StatefulSet scales down: the controller records each pod deletion, and under
 * `whenScaled: Delete` makes each condemned pod the owner of its claims (instead of the set), so
 * the garbage collector deletes the claims once the pods are gone.
 */
export function condemnClaimsOnScaleDown(ctx: OperationContext, set: KubeObject, replicas: number): void {
  const { world } = ctx;
  const sts = set as unknown as StatefulSet;
  const name = set.metadata?.name ?? '';
  const ns = namespaceOf(set);
  const templates = sts.spec?.volumeClaimTemplates ?? [];
  if (templates.length === 0) return;
  const start = sts.spec?.ordinals?.start ?? 0;
  const condemned = world
    .pods()
    .filter(
      (p) =>
        namespaceOf(p) === ns &&
        p.metadata?.ownerReferences?.some((r) => r.kind === 'StatefulSet' && r.name === name) &&
        ordinalOf(p.metadata?.name ?? '') >= start + replicas,
    )
    .sort((a, b) => ordinalOf(b.metadata?.name ?? '') - ordinalOf(a.metadata?.name ?? ''));
  const deleteClaims = retentionPolicy(sts).whenScaled === 'Delete';
  for (const pod of condemned) {
    note(
      world,
      `StatefulSet/${ns}/${name}`,
      Reasons.SuccessfulDelete,
      Messages.statefulSetPod('delete', pod.metadata?.name ?? '', name),
    );
    if (!deleteClaims) continue;
    const owner: OwnerReference = {
      apiVersion: 'v1',
      kind: 'Pod',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid ?? '',
      blockOwnerDeletion: true,
    };
    for (const t of templates) {
      const claimName = statefulSetClaimName(
        t.metadata?.name ?? '',
        sts,
        ordinalOf(pod.metadata?.name ?? ''),
      );
      const claim = world.items.find(
        (o) => o.kind === 'PersistentVolumeClaim' && namespaceOf(o) === ns && o.metadata?.name === claimName,
      );
      if (!claim) continue;
      const others = (claim.metadata?.ownerReferences ?? []).filter(
        (r) => !(r.kind === 'StatefulSet' && r.name === name),
      );
      world.replace(claim, {
        ...claim,
        metadata: { ...claim.metadata, ownerReferences: [...others, owner] },
      });
    }
  }
}

/**
 * A StatefulSet pod the scenario's controller creates: the claims of its volumeClaimTemplates are
 * mounted, and created when missing (a claim kept by `Retain` is reused, with its data).
 */
export function withStatefulSetClaims(world: World, set: KubeObject, pod: Pod): Pod {
  const sts = set as unknown as StatefulSet;
  const templates = sts.spec?.volumeClaimTemplates ?? [];
  if (templates.length === 0) return pod;
  const ns = namespaceOf(set);
  const setName = set.metadata?.name ?? '';
  const podName = pod.metadata?.name ?? '';
  const ordinal = ordinalOf(podName);
  const claimVolumes = templates.map((t) => ({
    name: t.metadata?.name ?? '',
    persistentVolumeClaim: { claimName: statefulSetClaimName(t.metadata?.name ?? '', sts, ordinal) },
  }));
  const kept = (pod.spec?.volumes ?? []).filter((v) => !claimVolumes.some((c) => c.name === v.name));
  for (const claim of statefulSetClaims(sts, ordinal)) {
    const claimName = claim.metadata?.name ?? '';
    const exists = world.items.some(
      (o) => o.kind === 'PersistentVolumeClaim' && namespaceOf(o) === ns && o.metadata?.name === claimName,
    );
    if (exists) continue;
    // A new claim is a new object: a volume Released by an earlier claim of this name does not bind it.
    const uid = `uid-pvc-${ns}-${claimName}-${++world.claimsCreated}`;
    const owners: OwnerReference[] =
      retentionPolicy(sts).whenDeleted === 'Delete'
        ? [
            {
              apiVersion: 'apps/v1',
              kind: 'StatefulSet',
              name: setName,
              uid: set.metadata?.uid ?? '',
              blockOwnerDeletion: true,
            },
          ]
        : [];
    world.add({
      ...claim,
      metadata: { ...claim.metadata, uid, ...(owners.length ? { ownerReferences: owners } : {}) },
    } as unknown as KubeObject);
    note(
      world,
      `StatefulSet/${ns}/${setName}`,
      Reasons.SuccessfulCreate,
      Messages.statefulSetClaim(claimName, podName, setName),
    );
  }
  note(
    world,
    `StatefulSet/${ns}/${setName}`,
    Reasons.SuccessfulCreate,
    Messages.statefulSetPod('create', podName, setName),
  );
  return { ...pod, spec: { ...pod.spec!, volumes: [...claimVolumes, ...kept] } };
}

/**
 * A claim's storage request raised (`kubectl patch pvc`): refused with the API server's message
 * (unbound claim, smaller request, a class without allowVolumeExpansion), else the resizer grows
 * the volume and the kubelet its file system where a pod mounts it.
 */
export function expandClaim(args: StepArgs['expandPVC'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  const ns = args.namespace ?? 'default';
  const object = `PersistentVolumeClaim/${ns}/${args.name}`;
  const claim = world.items.find(
    (o) => o.kind === 'PersistentVolumeClaim' && namespaceOf(o) === ns && o.metadata?.name === args.name,
  ) as { spec?: { resources?: { requests?: { storage?: unknown } }; volumeName?: string } } | undefined;
  if (!claim)
    throw new StepError('name', `persistentvolumeclaims "${args.name}" not found in namespace "${ns}"`);
  const before = String(claim.spec?.resources?.requests?.storage ?? '');
  const outcome = world.storage.expandClaim(
    world.items,
    ns,
    args.name,
    args.storage,
    world.storageStep.step,
    world.storageStep.operation,
  );
  if ('error' in outcome) {
    changes.push({ type: 'objectRejected', object, detail: outcome.error });
    return;
  }
  world.items = outcome.items;
  if (before === args.storage) {
    changes.push({ type: 'objectUpdated', object, detail: `storage request unchanged (${before})` });
    return;
  }
  changes.push({
    type: 'objectUpdated',
    object,
    detail: [
      `spec.resources.requests.storage ${before} → ${args.storage}`,
      `PersistentVolume ${claim.spec?.volumeName} grown by the external resizer`,
      outcome.mountedOn
        ? `file system resized by the kubelet on ${outcome.mountedOn}`
        : 'file system resize pending until a pod mounts the claim (FileSystemResizePending)',
      'the scheduler sees no change: a bound claim is checked only against its volume’s node affinity',
    ].join('; '),
  });
}

interface CapacityObject extends KubeObject {
  storageClassName?: string;
  capacity?: string | number;
  maximumVolumeSize?: string | number;
  nodeTopology?: Parameters<typeof selectorFromLabelSelector>[0];
}

/**
 * A storage-capacity-tracking CSI driver publishes less (or more) room for a class: the matching
 * CSIStorageCapacity objects change, or one is created for the zone. Bound volumes are not
 * affected; the scheduler checks it when it provisions a WaitForFirstConsumer claim.
 */
export function setStorageCapacity(args: StepArgs['setStorageCapacity'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  const className = args.storageClass;
  const sc = world.items.find((o) => o.kind === 'StorageClass' && o.metadata?.name === className) as
    (KubeObject & { provisioner?: string }) | undefined;
  if (!sc) throw new StepError('storageClass', `storageclasses.storage.k8s.io "${className}" not found`);
  for (const field of ['capacity', 'maximumVolumeSize'] as const) {
    const q = args[field];
    if (q !== undefined && !tryParseQuantity(String(q)))
      throw new StepError(field, `quantity "${q}" does not parse`);
  }
  const zoneNodes = args.zone ? world.nodes().filter((n) => zoneOf(n) === args.zone) : [];
  if (args.zone && zoneNodes.length === 0) throw new StepError('zone', `no node is in zone "${args.zone}"`);
  const inSegment = (c: CapacityObject) =>
    !args.zone ||
    (c.nodeTopology !== undefined &&
      zoneNodes.some((n) => selectorFromLabelSelector(c.nodeTopology ?? {}).matches(n.metadata?.labels)));
  const matching = (world.items as CapacityObject[]).filter(
    (o) =>
      o.kind === 'CSIStorageCapacity' &&
      o.storageClassName === className &&
      (args.name ? o.metadata?.name === args.name : inSegment(o)),
  );
  const set = (c: CapacityObject): CapacityObject => ({
    ...c,
    capacity: String(args.capacity),
    ...(args.maximumVolumeSize !== undefined ? { maximumVolumeSize: String(args.maximumVolumeSize) } : {}),
  });
  const tracked = world.items.some(
    (o) =>
      o.kind === 'CSIDriver' &&
      o.metadata?.name === sc.provisioner &&
      (o as { spec?: { storageCapacity?: boolean } }).spec?.storageCapacity === true,
  );
  const caveat = tracked
    ? ''
    : `; CSIDriver "${sc.provisioner}" does not set spec.storageCapacity: true, so the scheduler ignores it`;
  for (const c of matching) {
    world.replace(c, set(c));
    changes.push({
      type: 'objectUpdated',
      object: `CSIStorageCapacity/${namespaceOf(c)}/${c.metadata?.name}`,
      detail: `capacity ${c.capacity ?? 'unset'} → ${args.capacity}${caveat}`,
    });
  }
  if (matching.length > 0) return;
  if (!args.zone)
    throw new StepError(
      'zone',
      `no CSIStorageCapacity of class "${className}" exists: give a zone to publish one`,
    );
  const ns = args.namespace ?? 'kube-system';
  const name = args.name ?? `${className}-${args.zone}`;
  const created = set({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIStorageCapacity',
    metadata: { name, namespace: ns },
    storageClassName: className,
    nodeTopology: {
      matchLabels: { [driverZoneKey(world.items, sc.provisioner ?? '', zoneNodes)]: args.zone },
    },
  } as CapacityObject);
  world.add(created);
  changes.push({
    type: 'objectApplied',
    object: `CSIStorageCapacity/${ns}/${name}`,
    detail: `capacity ${args.capacity} for zone ${args.zone}${caveat}`,
  });
}

/** The zone label the driver reports in its CSINode topology keys (else the well-known one). */
function driverZoneKey(
  items: readonly KubeObject[],
  driver: string,
  nodes: readonly { metadata?: { name?: string } }[],
): string {
  const names = new Set(nodes.map((n) => n.metadata?.name));
  for (const o of items) {
    if (o.kind !== 'CSINode' || !names.has(o.metadata?.name)) continue;
    const drivers = (o as { spec?: { drivers?: { name: string; topologyKeys?: string[] }[] } }).spec?.drivers;
    const key = drivers?.find((d) => d.name === driver)?.topologyKeys?.find((k) => /zone$/.test(k));
    if (key) return key;
  }
  return 'topology.kubernetes.io/zone';
}

/** The local volumes (spec.local) pinned to a node, as `<volume> (claim <ns>/<name>)`. */
export function localVolumesOn(world: World, node: string): string[] {
  return (world.items.filter((o) => o.kind === 'PersistentVolume') as unknown as PersistentVolume[])
    .filter((pv) => localVolumeNode(pv) === node)
    .map((pv) => {
      const ref = pv.spec?.claimRef;
      return `${pv.metadata?.name}${ref ? ` (claim ${ref.namespace || 'default'}/${ref.name})` : ''}`;
    })
    .sort();
}
