/**
 * Expansion plus the engine: the admitted pods are scheduled as kube-scheduler would, and
 * OrderedReady StatefulSets advance one ordinal per scheduled predecessor (the step loop).
 */
import {
  namespaceOf,
  podKeyOf,
  seededRandomInt,
  type KubeObject,
  type PersistentVolumeClaim,
  type Pod,
} from '@schedlab/k8s';
import {
  buildClusterState,
  createSimulator,
  isDefaultStorageClass,
  setupEngine,
  summarize,
  syncPodClaims,
} from '@schedlab/scheduler';
import type { PodSchedulingResult, SimulateOptions, SimulationSummary, Simulator } from '@schedlab/scheduler';
import { ExpandOptions, ExpansionResult, admitPods, admitStatefulSetStep, expandWorkloads } from './expand';
import { recreateDeletedPods } from './controllers/recreate';

export interface ScheduleWorkloadsOptions
  extends ExpandOptions, Omit<SimulateOptions, 'seed' | 'onProgress'> {
  /**
   * Called after each pod with the pods scheduled so far and the pods known so far (the total
   * grows as OrderedReady StatefulSets admit their next ordinals).
   */
  onProgress?: (podsProcessed: number, podsTotal: number) => void;
}

export interface WorkloadSimulation {
  expansion: ExpansionResult;
  summary: SimulationSummary;
  /** In scheduling order, StatefulSet steps after the batch that unblocked them. */
  results: PodSchedulingResult[];
  /** StatefulSets that stopped short of their replicas (a pod unschedulable or rejected). */
  haltedStatefulSets: string[];
  /** The engine state after scheduling, for follow-up operations (deleteAndRecreate). */
  simulator: Simulator;
}

/** DefaultStorageClass admission for claims created after the cluster was built. */
function defaultClaimClass(sim: Simulator, claim: PersistentVolumeClaim): PersistentVolumeClaim {
  if (!claim.spec || claim.spec.storageClassName !== undefined) return claim;
  const defaults = sim.objects.storageClasses.list().filter(isDefaultStorageClass);
  defaults.sort((a, b) => {
    const ta = a.metadata?.creationTimestamp ?? '';
    const tb = b.metadata?.creationTimestamp ?? '';
    if (ta !== tb) return ta > tb ? -1 : 1;
    return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  });
  const name = defaults[0]?.metadata?.name;
  return name === undefined ? claim : { ...claim, spec: { ...claim.spec, storageClassName: name } };
}

/** The cluster once the controllers created their objects: what the engine starts from. */
export function expandedClusterItems(expansion: ExpansionResult): KubeObject[] {
  return [
    ...expansion.passthrough,
    ...(expansion.replicaSets as unknown as KubeObject[]),
    ...(expansion.statefulSets.map((c) => c.set) as unknown as KubeObject[]),
    ...(expansion.pvcs as unknown as KubeObject[]),
    ...(expansion.pods as unknown as KubeObject[]),
  ];
}

export function scheduleWorkloads(
  items: readonly KubeObject[],
  options: ScheduleWorkloadsOptions = {},
): WorkloadSimulation {
  const expansion = expandWorkloads(items, options);
  const cluster = buildClusterState(expandedClusterItems(expansion));
  const setup = setupEngine(options);
  const sim = createSimulator(cluster, setup, options);
  const results: PodSchedulingResult[] = [];
  let sequence = 0;
  const run = (pending: readonly Pod[]) => {
    const ordered = sim.queueOrder(pending);
    const total = results.length + ordered.length;
    const batch: PodSchedulingResult[] = [];
    for (const p of ordered) {
      const r = sim.scheduleOne(p, sequence++);
      batch.push(r);
      results.push(r);
      options.onProgress?.(results.length, total);
    }
    return batch;
  };

  let batch = run(cluster.pendingPods);
  // Each round reports the last batch to every StatefulSet and schedules whatever that unblocks.
  for (;;) {
    const next: Pod[] = [];
    for (const controller of expansion.statefulSets) {
      for (const r of batch) {
        const [ns, name] = r.pod.split('/');
        if (ns === namespaceOf(controller.set) && controller.ordinalOf(name) !== undefined) {
          controller.observe(name, r.outcome === 'scheduled');
        }
      }
      const claims: PersistentVolumeClaim[] = [];
      // The resourceclaim controller generates the new ordinals' DRA claims from their templates.
      const pods = admitStatefulSetStep(controller, expansion.policy, expansion.rejected, claims).map((p) =>
        syncPodClaims(p, sim.objects),
      );
      for (const c of claims) sim.objects.persistentVolumeClaims.set(defaultClaimClass(sim, c));
      expansion.pvcs.push(...claims);
      expansion.pods.push(...pods);
      next.push(...pods);
    }
    if (next.length === 0) break;
    batch = run(next);
  }

  const scheduledPods = new Set(results.filter((r) => r.outcome === 'scheduled').map((r) => r.pod));
  const haltedStatefulSets = expansion.statefulSets
    .filter((c) => {
      const replicas = c.set.spec?.replicas ?? 1;
      const start = c.set.spec?.ordinals?.start ?? 0;
      const ns = namespaceOf(c.set);
      for (let i = 0; i < replicas; i++) if (!scheduledPods.has(`${ns}/${c.podName(start + i)}`)) return true;
      return false;
    })
    .map((c) => podKeyOf(c.set));
  return { expansion, summary: summarize(results), results, haltedStatefulSets, simulator: sim };
}

export interface DeleteResult {
  /** Replacement pods created by controllers, with their scheduling results. */
  recreated: Array<{ deleted: string; replacement: string; result?: PodSchedulingResult }>;
  /** Deleted pods nobody recreates (bare pods, mirror pods, DaemonSet pods of removed nodes). */
  gone: string[];
  /** Replacements admission rejected (e.g. quota). */
  rejected: ExpansionResult['rejected'];
}

/**
 * Deletes running pods (`namespace/name`) from a simulation, as an operation like a drain would:
 * their controllers create replacements, which are admitted and scheduled on what is left.
 */
export function deleteAndRecreate(
  simulation: WorkloadSimulation,
  podKeys: readonly string[],
  opts: { seed?: number } = {},
): DeleteResult {
  const sim = simulation.simulator;
  const wanted = new Set(podKeys);
  const deleted: Pod[] = [];
  for (const info of sim.snapshot.list()) {
    for (const pi of info.pods) {
      const key = podKeyOf(pi.pod);
      if (wanted.has(key)) deleted.push(pi.pod);
    }
  }
  const found = new Set(deleted.map((p) => podKeyOf(p)));
  const missing = podKeys.filter((k) => !found.has(k));
  if (missing.length > 0) throw new Error(`no running pod ${missing.join(', ')} in the simulation`);
  for (const p of deleted) {
    sim.evict(p);
    simulation.expansion.policy.quotas.release({ ...p, kind: 'Pod' });
  }
  const liveNodes = new Set(sim.snapshot.list().map((n) => n.node.metadata?.name ?? ''));
  const { recreated, gone } = recreateDeletedPods(deleted, seededRandomInt(opts.seed ?? 0), liveNodes);
  const rejected: ExpansionResult['rejected'] = [];
  // Replacements get their DRA claims from their templates, as the resourceclaim controller does.
  const admitted = admitPods(
    recreated.map((r) => r.replacement),
    simulation.expansion.policy,
    rejected,
  ).map((p) => syncPodClaims(p, sim.objects));
  const results = sim.queueOrder(admitted).map((p, k) => sim.scheduleOne(p, simulation.results.length + k));
  simulation.results.push(...results);
  return {
    recreated: recreated.map((r) => {
      const replacement = podKeyOf(r.replacement);
      return {
        deleted: podKeyOf(r.deleted),
        replacement,
        result: results.find((x) => x.pod === replacement),
      };
    }),
    gone,
    rejected,
  };
}
