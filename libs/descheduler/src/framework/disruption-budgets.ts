/**
 * The eviction subresource's PodDisruptionBudget check over the descheduler's view: the budget's
 * healthy pods are counted from the snapshot's pods that are still there, so each eviction uses
 * one disruption up.
 */
import {
  type KubeObject,
  type Pod,
  type PodDisruptionBudget,
  namespaceOf,
  selectorFromLabelSelector,
} from '@schedlab/k8s';
import type { ClusterView } from './cluster-view';
import { isTerminalPod } from './pods';

export const PDB_VIOLATION_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MULTIPLE_PDBS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

export type BudgetVerdict =
  | { allowed: true }
  | { allowed: false; refusal: 'pod-disruption-budget' | 'multiple-pod-disruption-budgets'; message: string };

/** policy/v1: a missing selector matches nothing, an empty one every pod of the namespace. */
function budgetSelects(pdb: PodDisruptionBudget, pod: Pod): boolean {
  if (namespaceOf(pdb) !== namespaceOf(pod) || !pdb.spec?.selector) return false;
  try {
    return selectorFromLabelSelector(pdb.spec.selector).matches(pod.metadata?.labels);
  } catch {
    return false;
  }
}

/** Running and Ready (a pod without conditions in a dump counts as ready). */
function isHealthy(pod: Pod): boolean {
  if (!pod.spec?.nodeName || isTerminalPod(pod) || pod.status?.phase === 'Pending') return false;
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return !ready || ready.status === 'True';
}

/** IntOrString against a total, rounding up as the disruption controller does. */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const pct = /^(\d+)%$/.exec(value);
  return pct ? Math.ceil((Number(pct[1]) * total) / 100) : Number(value) || 0;
}

interface Scalable {
  kind: string;
  metadata: {
    name?: string;
    namespace?: string;
    uid?: string;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
  spec?: { replicas?: number };
}

export class DisruptionBudgets {
  private readonly budgets: PodDisruptionBudget[];
  private readonly controllers: Scalable[];

  constructor(
    objects: readonly KubeObject[],
    private readonly view: ClusterView,
  ) {
    this.budgets = objects.filter(
      (o) => o.kind === 'PodDisruptionBudget',
    ) as unknown as PodDisruptionBudget[];
    this.controllers = objects.filter((o) =>
      ['ReplicaSet', 'StatefulSet', 'ReplicationController', 'Deployment'].includes(o.kind),
    ) as unknown as Scalable[];
  }

  /** The scale the pod's controller asks for; a Deployment's ReplicaSet answers for the Deployment. */
  private scaleOf(ns: string, kind: string, name: string): number | undefined {
    const owner = this.controllers.find(
      (c) => c.kind === kind && c.metadata.name === name && namespaceOf(c as KubeObject) === ns,
    );
    if (!owner) return undefined;
    const parent = owner.metadata.ownerReferences?.find((o) => o.controller);
    if (kind === 'ReplicaSet' && parent?.kind === 'Deployment')
      return this.scaleOf(ns, 'Deployment', parent.name) ?? owner.spec?.replicas ?? 1;
    return owner.spec?.replicas ?? 1;
  }

  /** expectedPods: the controllers' scale, a bare pod counting once (the disruption controller's rule). */
  private expectedPods(ns: string, pods: readonly Pod[]): number {
    const seen = new Set<string>();
    let total = 0;
    for (const pod of pods) {
      const c = pod.metadata?.ownerReferences?.find((o) => o.controller);
      if (!c) {
        total++;
        continue;
      }
      const id = `${c.kind}/${c.name}`;
      if (seen.has(id)) continue;
      seen.add(id);
      total +=
        this.scaleOf(ns, c.kind, c.name) ??
        pods.filter((p) => p.metadata?.ownerReferences?.some((o) => o.name === c.name)).length;
    }
    return total;
  }

  /** How many more pods of the budget may go now. */
  disruptionsAllowed(pdb: PodDisruptionBudget): number {
    const ns = namespaceOf(pdb);
    const healthy = this.view.pods().filter((p) => budgetSelects(pdb, p) && isHealthy(p)).length;
    // Evicted pods still count as expected: their controllers will replace them.
    const expectedFrom = this.view.snapshotPods().filter((p) => budgetSelects(pdb, p));
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    let desired: number;
    if (maxUnavailable !== undefined) {
      const expected = this.expectedPods(ns, expectedFrom);
      desired = Math.max(0, expected - scaled(maxUnavailable, expected));
    } else if (typeof minAvailable === 'number') desired = minAvailable;
    else if (minAvailable !== undefined) desired = scaled(minAvailable, this.expectedPods(ns, expectedFrom));
    else desired = 0;
    return Math.max(0, healthy - desired);
  }

  /** Would the eviction API accept evicting this pod now? */
  check(pod: Pod): BudgetVerdict {
    // Pods that are not running (terminal or pending) are deleted without a budget check.
    if (isTerminalPod(pod) || pod.status?.phase === 'Pending') return { allowed: true };
    const matching = this.budgets.filter((pdb) => budgetSelects(pdb, pod));
    if (matching.length === 0) return { allowed: true };
    if (matching.length > 1)
      return { allowed: false, refusal: 'multiple-pod-disruption-budgets', message: MULTIPLE_PDBS_MESSAGE };
    // An unhealthy pod does not use a disruption up (IfHealthyBudget): it goes while the budget is met.
    if (!isHealthy(pod)) return { allowed: true };
    if (this.disruptionsAllowed(matching[0]) > 0) return { allowed: true };
    return { allowed: false, refusal: 'pod-disruption-budget', message: PDB_VIOLATION_MESSAGE };
  }
}
