/**
 * The cluster-capacity question: how many more copies of a pod fit? Clones of a template are
 * scheduled one at a time with full fidelity and no preemption, each bound before the next is
 * tried, until one fits nowhere or `maxReplicas` have been placed. A template's generic ephemeral
 * volumes give each clone its own claim (the ephemeral volume controller's part), so volume
 * limits (CSINode allocatable count), zonal provisioning and storage capacity count: the driver
 * republishes CSIStorageCapacity less each volume it provisioned.
 */
import { KubeObject, Pod, admitPriority, defaultPod } from '@schedlab/k8s';
import { buildClusterState, createSimulator, setupEngine, SimulateOptions } from '@schedlab/scheduler';
import { consumeStorageCapacity, ephemeralClaimsOf } from '@schedlab/storage';

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
  /** Volumes provisioned for the clones' ephemeral claims, when the template has any. */
  provisionedVolumes?: number;
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
  // A Map: an object's lookup of a node named "constructor" would find Object.prototype's.
  const perNode = new Map<string, number>();
  const objects = sim.objects;
  const withVolumes = (template.spec?.volumes ?? []).some((v) => v.ephemeral);
  let provisioned = 0;
  const result = (replicas: number, stopReason: string): CapacityResult => ({
    replicas,
    perNode: Object.fromEntries(perNode),
    stopReason,
    ...(withVolumes ? { provisionedVolumes: provisioned } : {}),
  });
  for (let k = 0; k < request.maxReplicas; k++) {
    const clone = cloneOf(template, k);
    const claims = ephemeralClaimsOf(clone, objects).claims;
    for (const c of claims) objects.persistentVolumeClaims.set(c);
    const r = sim.scheduleOne(clone, k);
    if (r.node === null) {
      for (const c of claims)
        objects.persistentVolumeClaims.delete(c.metadata?.namespace ?? '', c.metadata?.name ?? '');
      return result(k, r.message ?? r.error ?? 'unschedulable');
    }
    perNode.set(r.node, (perNode.get(r.node) ?? 0) + 1);
    const node = cluster.nodes.find((n) => n.metadata?.name === r.node);
    for (const pv of Object.values(r.volumes?.provisioned ?? {})) {
      provisioned++;
      if (node) consumeStorageCapacity(objects, pv, node);
    }
  }
  return result(request.maxReplicas, STOP_MAX_REPLICAS);
}
