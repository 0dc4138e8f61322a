// Taint/toleration matching (core/v1 Toleration.ToleratesTaint and component-helpers helpers).
import type { Taint, Toleration } from './types';

/** Whether one toleration tolerates one taint. */
export function tolerationToleratesTaint(tol: Toleration, taint: Taint): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  switch (tol.operator ?? '') {
    // An empty operator means Equal (API defaulting is not applied to tolerations).
    case '':
    case 'Equal':
      return (tol.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[] | null | undefined,
  taint: Taint,
): boolean {
  if (!tolerations) return false;
  for (const t of tolerations) if (tolerationToleratesTaint(t, taint)) return true;
  return false;
}

/** The first taint accepted by `inclusionFilter` that no toleration tolerates, if any. */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | null | undefined,
  tolerations: readonly Toleration[] | null | undefined,
  inclusionFilter?: (t: Taint) => boolean,
): Taint | undefined {
  if (!taints) return undefined;
  for (const taint of taints) {
    if (inclusionFilter && !inclusionFilter(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}
