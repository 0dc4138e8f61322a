/**
 * Expansion plus the engine: the admitted pods are scheduled as kube-scheduler would, and
 * OrderedReady StatefulSets advance one ordinal per scheduled predecessor (the step loop).
 */
import type { KubeObject, PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import { buildClusterState, createSimulator, isDefaultStorageClass, setupEngine, summarize } from '@schedlab/scheduler';
import type { PodSchedulingResult, SimulateOptions, SimulationSummary, Simulator } from '@schedlab/scheduler';
import { ExpandOptions, ExpansionResult, admitStatefulSetStep, expandWorkloads } from './expand';

export interface ScheduleWorkloadsOptions extends ExpandOptions, Omit<SimulateOptions, 'seed' | 'onProgress'> {}

export interface WorkloadSimulation {
  expansion: ExpansionResult;
  summary: SimulationSummary;
  /** In scheduling order, StatefulSet steps after the batch that unblocked them. */
  results: PodSchedulingResult[];
  /** StatefulSets that stopped short of their replicas (a pod unschedulable or rejected). */
  haltedStatefulSets: string[];
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

export function scheduleWorkloads(items: readonly KubeObject[], options: ScheduleWorkloadsOptions = {}): WorkloadSimulation {
  const expansion = expandWorkloads(items, options);
  const clusterItems: KubeObject[] = [
    ...expansion.passthrough,
    ...(expansion.replicaSets as unknown as KubeObject[]),
    ...(expansion.statefulSets.map((c) => c.set) as unknown as KubeObject[]),
    ...(expansion.pvcs as unknown as KubeObject[]),
    ...(expansion.pods as unknown as KubeObject[]),
  ];
  const cluster = buildClusterState(clusterItems);
  const setup = setupEngine(options);
  const sim = createSimulator(cluster, setup, options);
  const results: PodSchedulingResult[] = [];
  let sequence = 0;
  const run = (pending: readonly Pod[]) => {
    const batch = sim.queueOrder(pending).map((p) => sim.scheduleOne(p, sequence++));
    results.push(...batch);
    return batch;
  };

  let batch = run(cluster.pendingPods);
  // Each round reports the last batch to every StatefulSet and schedules whatever that unblocks.
  for (;;) {
    const next: Pod[] = [];
    for (const controller of expansion.statefulSets) {
      for (const r of batch) {
        const [ns, name] = r.pod.split('/');
        if (ns === (controller.set.metadata?.namespace ?? 'default') && controller.ordinalOf(name) !== undefined) {
          controller.observe(name, r.outcome === 'scheduled');
        }
      }
      const claims: PersistentVolumeClaim[] = [];
      const pods = admitStatefulSetStep(controller, expansion.policy, expansion.rejected, claims);
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
      const ns = c.set.metadata?.namespace ?? 'default';
      for (let i = 0; i < replicas; i++) if (!scheduledPods.has(`${ns}/${c.podName(start + i)}`)) return true;
      return false;
    })
    .map((c) => `${c.set.metadata?.namespace ?? 'default'}/${c.set.metadata?.name}`);
  return { expansion, summary: summarize(results), results, haltedStatefulSets };
}
