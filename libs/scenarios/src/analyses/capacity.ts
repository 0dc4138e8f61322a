/**
 * The cluster-capacity question: how many more copies of a pod fit? Clones of a template are
 * scheduled one at a time with full fidelity and no preemption, each bound before the next is
 * tried, until one fits nowhere or `maxReplicas` have been placed.
 */
import { KubeObject, Pod, admitPriority, defaultPod } from '@schedlab/k8s';
import { buildClusterState, createSimulator, setupEngine, SimulateOptions } from '@schedlab/scheduler';

export interface CapacityRequest {
  podTemplate: Pod;
  /** Stop after this many clones have been bound. */
  maxReplicas: number;
}

export interface CapacityResult {
  replicas: number;
  /** node → clones bound there (nodes with none are absent). */
  perNode: Record<string, number>;
  /** The FitError of the first clone that fit nowhere, or "maxReplicas". */
  stopReason: string;
}

export const STOP_MAX_REPLICAS = 'maxReplicas';

export function cloneOf(template: Pod, k: number): Pod {
  const name = `${template.metadata?.name ?? 'pod'}-${k}`;
  return {
    ...template,
    metadata: { ...template.metadata, name, uid: `${template.metadata?.uid ?? name}-clone-${k}` },
    spec: { ...template.spec!, nodeName: undefined },
    status: {},
  };
}

export function capacity(
  items: readonly KubeObject[],
  request: CapacityRequest,
  options: Omit<SimulateOptions, 'preemption'> = {},
): CapacityResult {
  const cluster = buildClusterState(items);
  const setup = setupEngine(options);
  const sim = createSimulator(cluster, setup, { ...options, preemption: false });
  const template = admitPriority(defaultPod(request.podTemplate), cluster.objects.priorityClasses.list());
  const perNode: Record<string, number> = {};
  for (let k = 0; k < request.maxReplicas; k++) {
    const r = sim.scheduleOne(cloneOf(template, k), k);
    if (r.node === null) {
      return { replicas: k, perNode, stopReason: r.message ?? r.error ?? 'unschedulable' };
    }
    perNode[r.node] = (perNode[r.node] ?? 0) + 1;
  }
  return { replicas: request.maxReplicas, perNode, stopReason: STOP_MAX_REPLICAS };
}
