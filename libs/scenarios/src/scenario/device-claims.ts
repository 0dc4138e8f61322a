/**
 * DRA ResourceClaims between scenario steps, as the API server and kube-controller-manager keep
 * them: what a scheduling pass wrote (claims generated from templates, allocations and
 * reservations made at Reserve, the pods' status.resourceClaimStatuses) stays in the world, and
 * the resourceclaim controller with the garbage collector releases what pods that went away held.
 */
import { namespaceOf, podKeyOf, type KubeObject, type OwnerReference, type Pod } from '@schedlab/k8s';
import { podUid, type ClusterObjects } from '@schedlab/scheduler';

interface ReservedFor {
  resource?: string;
  name?: string;
  uid?: string;
}

type Claim = KubeObject & {
  metadata?: KubeObject['metadata'] & { ownerReferences?: OwnerReference[] };
  status?: { allocation?: unknown; reservedFor?: ReservedFor[]; [k: string]: unknown };
};

const claimKey = (o: KubeObject): string => `${namespaceOf(o)}/${o.metadata?.name ?? ''}`;

/** The pod will never run again: finished, or deleted before it reached a node. */
const isPodDone = (pod: Pod): boolean =>
  pod.status?.phase === 'Succeeded' ||
  pod.status?.phase === 'Failed' ||
  (!!pod.metadata?.deletionTimestamp && !pod.spec?.nodeName);

/**
 * The world after a pass: its ResourceClaims become the pass's (same positions for claims that
 * were there, new ones appended, none dropped by the pass), and every pod the claim controller
 * gave claim names records them in status.resourceClaimStatuses.
 */
export function withPassClaims(
  items: readonly KubeObject[],
  claims: readonly KubeObject[],
  podsSeen: readonly Pod[],
): KubeObject[] {
  const byKey = new Map(claims.map((c) => [claimKey(c), c]));
  const statuses = new Map<string, unknown>();
  for (const p of podsSeen) {
    const s = (p.status as { resourceClaimStatuses?: unknown } | undefined)?.resourceClaimStatuses;
    if (s) statuses.set(podKeyOf(p), s);
  }
  const out: KubeObject[] = [];
  for (const item of items) {
    if (item.kind === 'ResourceClaim') {
      const next = byKey.get(claimKey(item));
      byKey.delete(claimKey(item));
      out.push(next ?? item);
      continue;
    }
    if (item.kind === 'Pod') {
      const s = statuses.get(podKeyOf(item as unknown as Pod));
      const current = (item as unknown as Pod).status as { resourceClaimStatuses?: unknown } | undefined;
      if (s && JSON.stringify(s) !== JSON.stringify(current?.resourceClaimStatuses)) {
        out.push({ ...item, status: { ...(current ?? {}), resourceClaimStatuses: s } } as KubeObject);
        continue;
      }
    }
    out.push(item);
  }
  for (const claim of byKey.values()) out.push(claim);
  return out;
}

/**
 * One pass of the resourceclaim controller and the garbage collector over the claims: a
 * reservation for a pod that is gone, replaced (another uid) or done is removed; a claim whose
 * last reservation went is deallocated (the scheduler allocated it, so the controller may); a
 * claim generated for a pod is deleted once nothing reserves it and its pod is gone, replaced or
 * done. A claim never reserved keeps its allocation, as upstream leaves it.
 */
export function releaseDeviceClaims(items: readonly KubeObject[]): KubeObject[] {
  if (!items.some((i) => i.kind === 'ResourceClaim')) return items as KubeObject[];
  const pods = new Map<string, Pod>();
  for (const i of items) if (i.kind === 'Pod') pods.set(podKeyOf(i as unknown as Pod), i as unknown as Pod);
  const podFor = (namespace: string, name: string | undefined, uid: string | undefined) => {
    const pod = pods.get(`${namespace}/${name ?? ''}`);
    return pod && podUid(pod) === uid && !isPodDone(pod) ? pod : undefined;
  };
  const out: KubeObject[] = [];
  for (const item of items) {
    if (item.kind !== 'ResourceClaim') {
      out.push(item);
      continue;
    }
    let claim = item as Claim;
    const ns = namespaceOf(claim);
    const reserved = claim.status?.reservedFor ?? [];
    const valid = reserved.filter((r) => r.resource !== 'pods' || podFor(ns, r.name, r.uid));
    if (valid.length < reserved.length) {
      // The last reservation gone: the allocation goes with it.
      const { allocation, reservedFor: _reservedFor, ...rest } = claim.status ?? {};
      claim = {
        ...claim,
        status: valid.length > 0 ? { ...rest, allocation, reservedFor: valid } : rest,
      };
    }
    const owner = claim.metadata?.ownerReferences?.find(
      (o) => o.controller === true && o.apiVersion === 'v1' && o.kind === 'Pod',
    );
    if (valid.length === 0 && owner && !podFor(ns, owner.name, owner.uid)) continue;
    out.push(claim);
  }
  return out;
}

/**
 * The same release inside a running simulation (the deschedule analysis evicts and reschedules
 * within one): the simulator's claims become what the controller leaves of them, given the
 * objects still in the cluster.
 */
export function releaseClaimsIn(objects: ClusterObjects, remaining: readonly KubeObject[]): void {
  const before = objects.resourceClaims.list() as unknown as KubeObject[];
  const pods = remaining.filter((o) => o.kind === 'Pod');
  const after = releaseDeviceClaims([...pods, ...before]).filter((o) => o.kind === 'ResourceClaim');
  const kept = new Set(after.map(claimKey));
  for (const c of before)
    if (!kept.has(claimKey(c))) objects.resourceClaims.delete(namespaceOf(c), c.metadata?.name ?? '');
  for (const c of after) objects.resourceClaims.set(c as never);
}
