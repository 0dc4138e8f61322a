/**
 * The eviction subresource's PodDisruptionBudget check, with the budget's status computed from the
 * scenario's current state the way the disruption controller would: healthy pods are bound to a
 * Ready node; expected pods come from the controllers' scale when the budget needs it.
 */
import {
  MULTIPLE_PDBS_MESSAGE,
  PDB_VIOLATION_MESSAGE,
  controllerScaleOf,
  expectedPodsOf,
  scaledIntOrPercent,
  type ScaledObject,
  namespaceOf,
  LabelSelector,
  Node,
  Pod,
  PodDisruptionBudget,
  selectorFromLabelSelector,
} from '@schedlab/k8s';
import { World } from './world';

export { PDB_VIOLATION_MESSAGE, MULTIPLE_PDBS_MESSAGE } from '@schedlab/k8s';

export interface BudgetStatus {
  name: string;
  expectedPods: number;
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
}

export function nodeIsReady(node: Node | undefined): boolean {
  if (!node) return false;
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  // A dump without conditions describes a healthy node.
  return !ready || ready.status === 'True';
}

/** IntOrString against a total (rounding up), naming the field when it is neither. */
function scaled(value: number | string, total: number, field: string): number {
  const n = scaledIntOrPercent(value, total);
  if (n === undefined)
    throw new Error(`${field}: invalid value "${value}": must be an integer or a percentage`);
  return n;
}

export function budgetsFor(world: World, pod: Pod): PodDisruptionBudget[] {
  const ns = namespaceOf(pod);
  return world.ofKind<PodDisruptionBudget>('PodDisruptionBudget').filter((pdb) => {
    if (namespaceOf(pdb) !== ns) return false;
    // policy/v1: an empty selector selects every pod of the namespace.
    return selectorFromLabelSelector((pdb.spec?.selector ?? {}) as LabelSelector).matches(
      pod.metadata?.labels,
    );
  });
}

function controllerScale(world: World, ns: string, kind: string, name: string): number | undefined {
  return controllerScaleOf(
    (k, n) =>
      world.items.find((i) => i.kind === k && i.metadata?.name === n && namespaceOf(i) === ns) as
        ScaledObject | undefined,
    kind,
    name,
  );
}

export function budgetStatus(world: World, pdb: PodDisruptionBudget): BudgetStatus {
  const ns = namespaceOf(pdb);
  const selector = selectorFromLabelSelector((pdb.spec?.selector ?? {}) as LabelSelector);
  const pods = world.pods().filter((p) => namespaceOf(p) === ns && selector.matches(p.metadata?.labels));
  const nodes = new Map(world.nodes().map((n) => [n.metadata?.name ?? '', n]));
  const currentHealthy = pods.filter(
    (p) => p.spec?.nodeName && nodeIsReady(nodes.get(p.spec.nodeName)),
  ).length;
  const controllerCount = (): number =>
    expectedPodsOf(pods, (kind, name) => controllerScale(world, ns, kind, name));
  const name = pdb.metadata?.name ?? '';
  const minAvailable = pdb.spec?.minAvailable;
  const maxUnavailable = pdb.spec?.maxUnavailable;
  let expectedPods: number;
  let desiredHealthy: number;
  if (maxUnavailable !== undefined) {
    expectedPods = controllerCount();
    desiredHealthy = Math.max(
      0,
      expectedPods -
        scaled(maxUnavailable, expectedPods, `PodDisruptionBudget ${ns}/${name}: spec.maxUnavailable`),
    );
  } else if (minAvailable !== undefined && typeof minAvailable === 'number') {
    expectedPods = pods.length;
    desiredHealthy = minAvailable;
  } else if (minAvailable !== undefined) {
    expectedPods = controllerCount();
    desiredHealthy = scaled(
      minAvailable,
      expectedPods,
      `PodDisruptionBudget ${ns}/${name}: spec.minAvailable`,
    );
  } else {
    // Neither set: the budget asks for nothing.
    expectedPods = pods.length;
    desiredHealthy = 0;
  }
  return {
    name,
    expectedPods,
    currentHealthy,
    desiredHealthy,
    disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy),
  };
}

export type EvictionVerdict = { allowed: true } | { allowed: false; message: string; cause?: string };

/** Would the eviction API accept evicting this running pod now? */
export function checkEviction(world: World, pod: Pod): EvictionVerdict {
  const budgets = budgetsFor(world, pod);
  if (budgets.length === 0) return { allowed: true };
  if (budgets.length > 1) return { allowed: false, message: MULTIPLE_PDBS_MESSAGE };
  // A pod that is not healthy does not count against the budget (unhealthy pods may be evicted).
  if (!pod.spec?.nodeName || !nodeIsReady(world.node(pod.spec.nodeName))) return { allowed: true };
  const s = budgetStatus(world, budgets[0]);
  if (s.disruptionsAllowed > 0) return { allowed: true };
  return {
    allowed: false,
    message: PDB_VIOLATION_MESSAGE,
    cause: `The disruption budget ${s.name} needs ${s.desiredHealthy} healthy pods and has ${s.currentHealthy} currently`,
  };
}
