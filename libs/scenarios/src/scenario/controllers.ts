/**
 * What the workload controllers do when pods go away or replica counts change: controller-owned
 * pods come back pending (the replacement keeps the name so a pod can be followed across a
 * scenario), bare pods are lost, and ReplicaSets/StatefulSets/ReplicationControllers create or
 * delete pods to match spec.replicas.
 */
import { podKeyOf, namespaceOf } from '@schedlab/k8s';
import type { KubeObject, ObjectMeta, OwnerReference, Pod } from '@schedlab/k8s';
import { deterministicUid } from '@schedlab/workloads';
import { withStatefulSetClaims } from './storage-steps';
import { Change, World } from './world';

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const RS_LIKE = new Set(['ReplicaSet', 'ReplicationController', 'StatefulSet']);
// Upstream's alphabet for generated name suffixes (no vowels, no confusable digits).
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function controllerOf(obj: { metadata?: ObjectMeta }): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((o) => o.controller === true);
}

export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}

export function isDaemonSetPod(pod: Pod): boolean {
  return controllerOf(pod)?.kind === 'DaemonSet';
}

/** "Kind/name" of a pod's controlling workload, or undefined for a bare pod. */
export function workloadOf(pod: Pod): string | undefined {
  const c = controllerOf(pod);
  return c ? `${c.kind}/${namespaceOf(pod)}/${c.name}` : undefined;
}

export function pendingCopy(pod: Pod): Pod {
  const { nodeName: _node, ...spec } = pod.spec ?? { containers: [] };
  return { ...pod, spec: spec as Pod['spec'], status: {} };
}

/**
 * A running pod goes away (evicted, deleted, its node gone). Controllers other than DaemonSets
 * recreate it pending; a DaemonSet pod or a mirror pod leaves with its node; a bare pod is lost.
 */
export function podGone(
  world: World,
  pod: Pod,
  how: 'podEvicted' | 'podDeleted',
  changes: Change[],
  opts: { reason?: string; nodeGone?: boolean } = {},
): void {
  const key = podKeyOf(pod);
  const nodeGone = opts.nodeGone ?? false;
  world.noExecuteDeadlines.delete(key);
  const where = pod.spec?.nodeName ? `from ${pod.spec.nodeName}` : '';
  changes.push({
    type: how,
    object: key,
    detail: [where, opts.reason].filter(Boolean).join(': ') || undefined,
  });
  const owner = controllerOf(pod);
  if (isMirrorPod(pod) || (nodeGone && owner?.kind === 'DaemonSet')) {
    world.remove(pod);
    return;
  }
  if (owner) {
    // A new incarnation under the same name: claims and reservations made for the old uid are
    // the resourceclaim controller's to release, not the replacement's to inherit.
    const replacement = pendingCopy(pod);
    const uid = deterministicUid('Pod', namespaceOf(pod), `${pod.metadata?.name}#${++world.podsRecreated}`);
    world.replace(pod, { ...replacement, metadata: { ...replacement.metadata, uid } });
    changes.push({ type: 'podRecreated', object: key, detail: `by ${owner.kind}/${owner.name}, pending` });
  } else {
    world.remove(pod);
    changes.push({ type: 'podLost', object: key, detail: 'no controller recreates a bare pod' });
  }
}

function randomSuffix(world: World): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += SUFFIX_ALPHABET[Math.floor(world.random() * SUFFIX_ALPHABET.length)];
  return s;
}

interface WorkloadObject extends KubeObject {
  spec?: { replicas?: number; template?: { metadata?: ObjectMeta; spec?: Pod['spec'] } };
}

export function podsOwnedBy(world: World, owner: KubeObject): Pod[] {
  const ns = namespaceOf(owner);
  return world
    .pods()
    .filter(
      (p) =>
        namespaceOf(p) === ns &&
        controllerOf(p)?.kind === owner.kind &&
        controllerOf(p)?.name === owner.metadata?.name,
    );
}

function newPod(world: World, owner: WorkloadObject, name: string): Pod {
  const template = owner.spec?.template;
  if (!template?.spec)
    throw new Error(`${owner.kind} "${owner.metadata?.name}" has no spec.template.spec to create pods from`);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...template.metadata,
      name,
      namespace: namespaceOf(owner),
      creationTimestamp: new Date(Date.parse('2030-01-01T00:00:00Z') + world.clock * 1000)
        .toISOString()
        .replace('.000Z', 'Z'),
      ownerReferences: [
        {
          apiVersion: owner.apiVersion ?? 'apps/v1',
          kind: owner.kind,
          name: owner.metadata?.name ?? '',
          uid: owner.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(template.spec),
    status: {},
  };
}

const ordinalOf = (p: Pod): number => Number(/-(\d+)$/.exec(p.metadata?.name ?? '')?.[1] ?? -1);

/** Upstream's scale-down preference, simplified: unscheduled first, then crowded nodes, then newest. */
function scaleDownOrder(pods: Pod[]): Pod[] {
  const perNode = new Map<string, number>();
  for (const p of pods)
    if (p.spec?.nodeName) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  return [...pods].sort((a, b) => {
    const ua = a.spec?.nodeName ? 1 : 0;
    const ub = b.spec?.nodeName ? 1 : 0;
    if (ua !== ub) return ua - ub;
    const ca = perNode.get(a.spec?.nodeName ?? '') ?? 0;
    const cb = perNode.get(b.spec?.nodeName ?? '') ?? 0;
    if (ca !== cb) return cb - ca;
    const ta = a.metadata?.creationTimestamp ?? '';
    const tb = b.metadata?.creationTimestamp ?? '';
    if (ta !== tb) return ta > tb ? -1 : 1;
    return (b.metadata?.name ?? '').localeCompare(a.metadata?.name ?? '');
  });
}

/** Creates or deletes pods of a ReplicaSet, ReplicationController or StatefulSet to match spec.replicas. */
export function reconcileReplicas(world: World, owner: WorkloadObject, changes: Change[]): void {
  if (!RS_LIKE.has(owner.kind)) throw new Error(`internal: ${owner.kind} is not reconciled here`);
  const want = owner.spec?.replicas ?? 1;
  const pods = podsOwnedBy(world, owner);
  const name = owner.metadata?.name ?? '';
  if (pods.length < want) {
    const taken = new Set(world.pods().map(podKeyOf));
    const ns = namespaceOf(owner);
    for (let ordinal = 0, created = 0; created < want - pods.length; ordinal++) {
      const podName = owner.kind === 'StatefulSet' ? `${name}-${ordinal}` : `${name}-${randomSuffix(world)}`;
      if (taken.has(`${ns}/${podName}`)) continue;
      taken.add(`${ns}/${podName}`);
      const fresh = newPod(world, owner, podName);
      const pod = owner.kind === 'StatefulSet' ? withStatefulSetClaims(world, owner, fresh) : fresh;
      world.add(pod);
      changes.push({
        type: 'podCreated',
        object: podKeyOf(pod),
        detail: `by ${owner.kind}/${name}, pending`,
      });
      created++;
    }
  } else if (pods.length > want) {
    const order =
      owner.kind === 'StatefulSet'
        ? [...pods].sort((a, b) => ordinalOf(b) - ordinalOf(a))
        : scaleDownOrder(pods);
    for (const pod of order.slice(0, pods.length - want)) {
      world.remove(pod);
      world.noExecuteDeadlines.delete(podKeyOf(pod));
      changes.push({
        type: 'podDeleted',
        object: podKeyOf(pod),
        detail: `scale down of ${owner.kind}/${name}`,
      });
    }
  }
}

export const isReplicaController = (kind: string): boolean => RS_LIKE.has(kind);
