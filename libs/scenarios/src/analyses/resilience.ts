/**
 * "Can we lose any one node (or zone)?" Each failure domain is removed in turn with nodeLoss
 * (full scheduling with preemption on the survivors); workloads whose replicas on the survivors
 * fall below their PodDisruptionBudget (or to zero without one) lose availability.
 */
import { podKeyOf, zoneOf } from '@schedlab/k8s';
import type { KubeObject, Pod } from '@schedlab/k8s';
import type { Node, PersistentVolume, PersistentVolumeClaim } from '@schedlab/k8s';
import { volumeBinding } from '@schedlab/scheduler';
import { localVolumeNode, nodeIsReachable, volumeMatchesNoNode, zoneOfVolume } from '@schedlab/storage';
import { budgetStatus, budgetsFor } from '../scenario/disruption';
import { workloadOf } from '../scenario/controllers';
import { EngineOptions, World } from '../scenario/world';
import { nodeLoss } from './node-loss';

const h = volumeBinding.pvHelpers;

export interface WorkloadImpact {
  /** "Kind/namespace/name" of the controller, or the pod key for a bare pod. */
  workload: string;
  replicas: number;
  /** Replicas still running right after the loss, before anything is rescheduled. */
  replicasLeft: number;
  /** Replicas running once the evicted pods have been rescheduled. */
  replicasAfterRescheduling: number;
  /** Healthy replicas its PodDisruptionBudget requires, when it has one. */
  desiredHealthy?: number;
  disruptionBudget?: string;
  losesAvailability: boolean;
}

export interface FailureDomainResult {
  /** The node name, or the zone. */
  domain: string;
  nodes: string[];
  evictedPods: number;
  allRescheduled: boolean;
  unschedulable: { pod: string; reason: string }[];
  preempted: string[];
  workloads: WorkloadImpact[];
  /**
   * Evicted pods that cannot come back because of their volumes: bound to a volume of the lost
   * zone, or a local volume on a lost node, that no surviving node can attach.
   */
  pinnedByVolumes: PinnedByVolume[];
}

export interface PinnedByVolume {
  pod: string;
  claim: string;
  volume: string;
  zone?: string;
  /** A local volume: its data is on this (lost) node's disk. */
  localTo?: string;
  reason: string;
}

export interface ResilienceResult {
  by: 'node' | 'zone';
  domains: FailureDomainResult[];
  /** Domains whose loss leaves some pod unscheduled or some workload below its budget. */
  critical: string[];
}

export function resilience(
  items: readonly KubeObject[],
  by: 'node' | 'zone' = 'node',
  engine: EngineOptions = {},
): ResilienceResult {
  const world = new World(items, engine);
  const nodes = world.nodes();
  const domains = new Map<string, string[]>();
  for (const n of nodes) {
    const key = by === 'node' ? (n.metadata?.name ?? '') : (zoneOf(n) ?? '');
    domains.set(key, [...(domains.get(key) ?? []), n.metadata?.name ?? '']);
  }
  const out: ResilienceResult = { by, domains: [], critical: [] };
  for (const [domain, lost] of [...domains].sort(([a], [b]) => a.localeCompare(b))) {
    const lostSet = new Set(lost);
    const evicted = world.pods().filter((p) => lostSet.has(p.spec?.nodeName ?? ''));
    const loss = nodeLoss(items, lost, engine);
    const placed = new Map(loss.results.map((r) => [r.pod, r.node]));
    const preempted = loss.results.flatMap((r) => r.victims ?? []);
    const result: FailureDomainResult = {
      domain,
      nodes: lost,
      evictedPods: evicted.length,
      allRescheduled: evicted.every((p) => placed.get(podKeyOf(p))),
      unschedulable: loss.results
        .filter((r) => !r.node)
        .map((r) => ({ pod: r.pod, reason: r.message ?? r.error ?? r.outcome })),
      preempted,
      workloads: [],
      pinnedByVolumes: pinnedByVolumes(items, lostSet, evicted),
    };
    const affected = new Map<string, Pod[]>();
    for (const p of evicted) {
      const w = workloadOf(p) ?? podKeyOf(p);
      affected.set(w, []);
    }
    for (const p of world.pods()) {
      const w = workloadOf(p) ?? podKeyOf(p);
      affected.get(w)?.push(p);
    }
    const preemptedSet = new Set(preempted);
    for (const [workload, pods] of [...affected].sort(([a], [b]) => a.localeCompare(b))) {
      const running = pods.filter((p) => p.spec?.nodeName);
      const left = running.filter(
        (p) => !lostSet.has(p.spec!.nodeName!) && !preemptedSet.has(podKeyOf(p)),
      ).length;
      const after =
        left + pods.filter((p) => lostSet.has(p.spec?.nodeName ?? '') && placed.get(podKeyOf(p))).length;
      const impact: WorkloadImpact = {
        workload,
        replicas: running.length,
        replicasLeft: left,
        replicasAfterRescheduling: after,
        losesAvailability: false,
      };
      const budget = budgetsFor(world, pods[0])[0];
      if (budget) {
        const status = budgetStatus(world, budget);
        impact.disruptionBudget = budget.metadata?.name;
        impact.desiredHealthy = status.desiredHealthy;
        impact.losesAvailability = left < status.desiredHealthy;
      } else {
        impact.losesAvailability = left === 0;
      }
      result.workloads.push(impact);
    }
    if (!result.allRescheduled || result.workloads.some((w) => w.losesAvailability))
      out.critical.push(domain);
    out.domains.push(result);
  }
  return out;
}

/** The evicted pods' volumes that no node left after the loss can attach (zonal or local). */
function pinnedByVolumes(
  items: readonly KubeObject[],
  lost: ReadonlySet<string>,
  evicted: readonly Pod[],
): PinnedByVolume[] {
  const volumes = new Map(
    (items.filter((o) => o.kind === 'PersistentVolume') as unknown as PersistentVolume[]).map((v) => [
      v.metadata?.name ?? '',
      v,
    ]),
  );
  if (volumes.size === 0 || evicted.length === 0) return [];
  const claims = new Map(
    (items.filter((o) => o.kind === 'PersistentVolumeClaim') as unknown as PersistentVolumeClaim[]).map(
      (c) => [h.claimKey(c), c],
    ),
  );
  const nodes = items.filter((o) => o.kind === 'Node') as unknown as Node[];
  const reachable = nodes.filter(nodeIsReachable);
  const survivors = reachable.filter((n) => !lost.has(n.metadata?.name ?? ''));
  const out: PinnedByVolume[] = [];
  for (const pod of evicted) {
    for (const vol of pod.spec?.volumes ?? []) {
      const ref = h.claimNameOfVolume(pod, vol);
      const claim = ref && claims.get(`${h.namespaceOf(pod)}/${ref.name}`);
      const pv = claim && volumes.get(claim.spec?.volumeName ?? '');
      // Only volumes this loss strands: one no reachable node could attach before is no news.
      if (!claim || !pv || !volumeMatchesNoNode(pv, survivors) || volumeMatchesNoNode(pv, reachable))
        continue;
      const localTo = localVolumeNode(pv);
      const zone = zoneOfVolume(pv, nodes);
      out.push({
        pod: podKeyOf(pod),
        claim: h.claimKey(claim),
        volume: pv.metadata?.name ?? '',
        ...(zone ? { zone } : {}),
        ...(localTo ? { localTo } : {}),
        reason: localTo
          ? `local volume on ${localTo}: its data is on that node's disk, no other node can mount it`
          : zone
            ? `volume in zone ${zone}: no node left in the zone can attach it`
            : 'no node left matches the volume node affinity',
      });
    }
  }
  return out;
}
