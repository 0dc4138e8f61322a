/**
 * The API server's admission chain for a pod, in upstream order: mutating LimitRanger, Priority,
 * DefaultTolerationSeconds, RuntimeClass; then validating LimitRanger, RuntimeClass and, last,
 * ResourceQuota. A rejection is a Forbidden error in the apiserver's wording.
 */
import { AdmissionError, admitPriority } from '@schedlab/k8s';
import type { Pod, PriorityClass } from '@schedlab/k8s';
import { admitDefaultTolerationSeconds } from './default-toleration-seconds';
import { ForbiddenError, admissionName, aggregate } from './errors';
import { LimitRange, applyLimitRangeDefaults, limitRangeViolations } from './limit-range';
import { CountedObject, QuotaTracker } from './resource-quota';
import { RuntimeClass, admitRuntimeClass } from './runtime-class';

export interface AdmissionPolicy {
  priorityClasses: readonly PriorityClass[];
  limitRanges: readonly LimitRange[];
  runtimeClasses: readonly RuntimeClass[];
  quotas: QuotaTracker;
}

/**
 * Mutating plugins run before the registry generates the name, so their errors show the
 * generateName prefix; validating plugins run after, and show the generated name.
 */
function forbidden(obj: CountedObject, reason: string, plugin: string, mutating = false): ForbiddenError {
  const meta = obj.metadata as { name?: string; generateName?: string } | undefined;
  const name = mutating && meta?.generateName ? meta.generateName : admissionName(meta);
  return new ForbiddenError(obj.kind, name, reason, plugin);
}

function step<T>(pod: Pod, plugin: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ForbiddenError) throw e;
    const reason = e instanceof AdmissionError || e instanceof Error ? e.message : String(e);
    throw forbidden({ ...pod, kind: 'Pod' }, reason, plugin, true);
  }
}

/** Runs the chain; returns the pod as stored, or throws ForbiddenError. Usage is charged to quotas on success. */
export function admitPod(pod: Pod, policy: AdmissionPolicy): Pod {
  let p = step(pod, 'LimitRanger', () => applyLimitRangeDefaults(pod, policy.limitRanges));
  p = step(p, 'Priority', () => admitPriority(p, policy.priorityClasses));
  p = admitDefaultTolerationSeconds(p);
  p = step(p, 'RuntimeClass', () => admitRuntimeClass(p, policy.runtimeClasses));
  const violations = limitRangeViolations(p, policy.limitRanges);
  if (violations.length > 0) throw forbidden({ ...p, kind: 'Pod' }, aggregate(violations), 'LimitRanger');
  const quotaReason = policy.quotas.admit({ ...p, kind: 'Pod' });
  if (quotaReason) throw forbidden({ ...p, kind: 'Pod' }, quotaReason, 'ResourceQuota');
  return p;
}

/** ResourceQuota for other objects (claims, workload objects) created by the expansion. */
export function admitObject<T extends CountedObject>(obj: T, policy: AdmissionPolicy): T {
  const reason = policy.quotas.admit(obj);
  if (reason) throw forbidden(obj, reason, 'ResourceQuota');
  return obj;
}
