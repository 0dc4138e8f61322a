/**
 * The eviction subresource's PodDisruptionBudget check over the descheduler's view: the budget's
 * healthy pods are counted from the snapshot's pods that are still there, so each eviction uses
 * one disruption up.
 */
import {
  MULTIPLE_PDBS_MESSAGE,
  PDB_VIOLATION_MESSAGE,
  type KubeObject,
  type ScaledObject,
  controllerScaleOf,
  expectedPodsOf,
  scaledIntOrPercent,
  type Pod,
  type PodDisruptionBudget,
  namespaceOf,
  selectorFromLabelSelector,
} from '@schedlab/k8s';
import type { ClusterView } from './cluster-view';
import { isTerminalPod } from './pods';

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

export class DisruptionBudgets {
  private readonly budgets: PodDisruptionBudget[];
  private readonly workloads: KubeObject[];

  constructor(
    objects: readonly KubeObject[],
    private readonly view: ClusterView,
  ) {
    this.budgets = objects.filter(
      (o) => o.kind === 'PodDisruptionBudget',
    ) as unknown as PodDisruptionBudget[];
    this.workloads = objects.filter((o) =>
      ['ReplicaSet', 'StatefulSet', 'ReplicationController', 'Deployment'].includes(o.kind),
    );
  }

  /** expectedPods from these pods' controllers in the namespace (the disruption controller's rule). */
  private expectedPods(ns: string, pods: readonly Pod[]): number {
    const find = (kind: string, name: string) =>
      this.workloads.find((w) => w.kind === kind && w.metadata.name === name && namespaceOf(w) === ns) as
        ScaledObject | undefined;
    return expectedPodsOf(pods, (kind, name) => controllerScaleOf(find, kind, name));
  }

  /** How many more pods of the budget may go now. */
  disruptionsAllowed(pdb: PodDisruptionBudget): number {
    const { healthy, desired } = this.status(pdb);
    return Math.max(0, healthy - desired);
  }

  /** The budget's currentHealthy and desiredHealthy now. */
  status(pdb: PodDisruptionBudget): { healthy: number; desired: number } {
    const ns = namespaceOf(pdb);
    const healthy = this.view.pods().filter((p) => budgetSelects(pdb, p) && isHealthy(p)).length;
    // Evicted pods still count as expected: their controllers will replace them.
    const expectedFrom = this.view.snapshotPods().filter((p) => budgetSelects(pdb, p));
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    let desired: number;
    if (maxUnavailable !== undefined) {
      const expected = this.expectedPods(ns, expectedFrom);
      desired = Math.max(0, expected - (scaledIntOrPercent(maxUnavailable, expected) ?? 0));
    } else if (typeof minAvailable === 'number') desired = minAvailable;
    else if (minAvailable !== undefined)
      desired = scaledIntOrPercent(minAvailable, this.expectedPods(ns, expectedFrom)) ?? 0;
    else desired = 0;
    return { healthy, desired };
  }

  /** Would the eviction API accept evicting this pod now? */
  check(pod: Pod): BudgetVerdict {
    // Pods that are not running (terminal, pending) or already going are deleted without a budget check.
    if (isTerminalPod(pod) || pod.status?.phase === 'Pending' || pod.metadata?.deletionTimestamp)
      return { allowed: true };
    const matching = this.budgets.filter((pdb) => budgetSelects(pdb, pod));
    if (matching.length === 0) return { allowed: true };
    if (matching.length > 1)
      return { allowed: false, refusal: 'multiple-pod-disruption-budgets', message: MULTIPLE_PDBS_MESSAGE };
    if (!isHealthy(pod)) {
      // An unready pod goes when its budget says AlwaysAllow, or (IfHealthyBudget) while the budget is met.
      const policy = (matching[0].spec as { unhealthyPodEvictionPolicy?: string } | undefined)
        ?.unhealthyPodEvictionPolicy;
      if (policy === 'AlwaysAllow') return { allowed: true };
      const { healthy, desired } = this.status(matching[0]);
      if (healthy >= desired && desired > 0) return { allowed: true };
    }
    const { healthy, desired } = this.status(matching[0]);
    if (healthy - desired > 0) return { allowed: true };
    return {
      allowed: false,
      refusal: 'pod-disruption-budget',
      // The eviction API's message and its cause.
      message: `${PDB_VIOLATION_MESSAGE} The disruption budget ${matching[0].metadata?.name} needs ${desired} healthy pods and has ${healthy} currently`,
    };
  }
}
