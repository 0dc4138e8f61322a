/** Which preemption victims would violate a PodDisruptionBudget (upstream filterPodsWithPDBViolation). */
import { selectorFromLabelSelector } from '@schedlab/k8s';
import type { PodDisruptionBudget, Selector } from '@schedlab/k8s';
import type { PodInfo } from '../../types';

/** Compiled once per PDB object; null when the selector is invalid (it then matches no pod). */
const selectorCache = new WeakMap<PodDisruptionBudget, Selector | null>();

function pdbSelector(pdb: PodDisruptionBudget): Selector | null {
  let sel = selectorCache.get(pdb);
  if (sel === undefined) {
    try {
      sel = selectorFromLabelSelector(pdb.spec?.selector ?? null);
    } catch {
      sel = null;
    }
    selectorCache.set(pdb, sel);
  }
  return sel;
}

/**
 * Splits pods (in the order given, which is kept) into those whose eviction would take a
 * matching PDB below zero allowed disruptions and the rest. The allowance of each PDB is
 * consumed by every matching pod in turn; pods already listed in status.disruptedPods are
 * exempt, and a PDB with an empty selector matches nothing.
 */
export function filterPodsWithPDBViolation(
  podInfos: readonly PodInfo[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const pi of podInfos) {
    const pod = pi.pod;
    const labels = pod.metadata?.labels;
    let violated = false;
    if (labels && Object.keys(labels).length > 0) {
      const ns = pod.metadata?.namespace ?? 'default';
      const name = pod.metadata?.name ?? '';
      for (let i = 0; i < pdbs.length; i++) {
        const pdb = pdbs[i];
        if ((pdb.metadata?.namespace ?? 'default') !== ns) continue;
        const sel = pdbSelector(pdb);
        if (sel === null || sel.isEmpty() || !sel.matches(labels)) continue;
        const disrupted = pdb.status?.disruptedPods;
        if (disrupted && Object.prototype.hasOwnProperty.call(disrupted, name)) continue;
        allowed[i]--;
        if (allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : nonViolating).push(pi);
  }
  return { violating, nonViolating };
}
