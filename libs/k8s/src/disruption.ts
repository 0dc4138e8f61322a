/**
 * The disruption controller's arithmetic for PodDisruptionBudgets, shared by every caller that
 * judges an eviction: IntOrString scaling and the pods a budget expects from its pods' controllers.
 */
import type { OwnerReference } from './types';

/** The eviction subresource's refusals, in its words. */
export const PDB_VIOLATION_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MULTIPLE_PDBS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/**
 * An IntOrString against a total, a percentage rounded up as GetScaledValueFromIntOrPercent(…, true)
 * does; undefined when it is neither an integer nor a percentage.
 */
export function scaledIntOrPercent(value: number | string, total: number): number | undefined {
  if (typeof value === 'number') return value;
  const pct = /^(\d+)%$/.exec(value);
  if (pct) return Math.ceil((Number(pct[1]) * total) / 100);
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
}

/** What controllerScaleOf needs of a workload object. */
export interface ScaledObject {
  spec?: { replicas?: number };
  metadata?: { ownerReferences?: readonly Pick<OwnerReference, 'kind' | 'name' | 'controller'>[] };
}

/**
 * The replicas a controller asks for, looked up by kind and name in the budget's namespace; a
 * Deployment's ReplicaSet answers with the Deployment's scale. Undefined when the object is absent.
 */
export function controllerScaleOf(
  find: (kind: string, name: string) => ScaledObject | undefined,
  kind: string,
  name: string,
): number | undefined {
  const owner = find(kind, name);
  if (!owner) return undefined;
  const parent = owner.metadata?.ownerReferences?.find((o) => o.controller);
  if (kind === 'ReplicaSet' && parent?.kind === 'Deployment')
    return controllerScaleOf(find, 'Deployment', parent.name) ?? owner.spec?.replicas ?? 1;
  return owner.spec?.replicas ?? 1;
}

interface Owned {
  metadata?: { ownerReferences?: readonly OwnerReference[] };
}

const controllerRefOf = (obj: Owned) => obj.metadata?.ownerReferences?.find((o) => o.controller === true);

/**
 * expectedPods of a budget over these pods: each controller's scale once (its pods among these
 * when the controller is not known), each pod without a controller once.
 */
export function expectedPodsOf(
  pods: readonly Owned[],
  scaleOf: (kind: string, name: string) => number | undefined,
): number {
  const seen = new Set<string>();
  let total = 0;
  for (const p of pods) {
    const c = controllerRefOf(p);
    if (!c) {
      total++;
      continue;
    }
    const id = `${c.kind}/${c.name}`;
    if (seen.has(id)) continue;
    seen.add(id);
    total += scaleOf(c.kind, c.name) ?? pods.filter((q) => controllerRefOf(q)?.name === c.name).length;
  }
  return total;
}
