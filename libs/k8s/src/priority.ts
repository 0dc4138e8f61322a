// Priority admission (plugin/pkg/admission/priority) as applied when a pod is created.
import type { Pod, PriorityClass } from './types';

export type PreemptionPolicy = 'PreemptLowerPriority' | 'Never';

export const SYSTEM_CLUSTER_CRITICAL = 'system-cluster-critical';
export const SYSTEM_NODE_CRITICAL = 'system-node-critical';
/**
 * Built-in classes the API server always creates. A Map: an object's `in` would also find
 * "constructor", "toString" … on its prototype, and a class of that name does not exist.
 */
export const SYSTEM_PRIORITY_CLASSES: ReadonlyMap<string, number> = new Map([
  [SYSTEM_CLUSTER_CRITICAL, 2000000000],
  [SYSTEM_NODE_CRITICAL, 2000001000],
]);

/** Raised when admission would reject the pod (HTTP 403 Forbidden upstream). */
export class AdmissionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdmissionError';
  }
}

export interface ResolvedPriority {
  priority: number;
  preemptionPolicy: PreemptionPolicy;
  className?: string;
}

function policyOf(pc: PriorityClass | undefined): PreemptionPolicy {
  // PriorityClass defaulting sets PreemptLowerPriority when the field is unset.
  return (pc?.preemptionPolicy as PreemptionPolicy | undefined) ?? 'PreemptLowerPriority';
}

function findClass(name: string, classes: readonly PriorityClass[]): PriorityClass | undefined {
  const found = classes.find((c) => c.metadata?.name === name);
  if (found) return found;
  const value = SYSTEM_PRIORITY_CLASSES.get(name);
  if (value === undefined) return undefined;
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value };
}

/**
 * With a priorityClassName: that class (built-in system classes always exist). Without: the
 * globalDefault class, picking the lowest value if several exist (as upstream does), else 0.
 */
export function resolvePodPriority(pod: Pod, classes: readonly PriorityClass[]): ResolvedPriority {
  const name = pod.spec?.priorityClassName;
  if (name) {
    const pc = findClass(name, classes);
    if (!pc) throw new AdmissionError(`no PriorityClass with name ${name} was found`);
    return { priority: pc.value, preemptionPolicy: policyOf(pc), className: name };
  }
  let def: PriorityClass | undefined;
  for (const pc of classes) if (pc.globalDefault && (!def || pc.value < def.value)) def = pc;
  if (def) return { priority: def.value, preemptionPolicy: policyOf(def), className: def.metadata?.name };
  return { priority: 0, preemptionPolicy: 'PreemptLowerPriority' };
}

/** Returns a copy of the pod with spec.priority/preemptionPolicy/priorityClassName as admission sets them. */
export function admitPriority(pod: Pod, classes: readonly PriorityClass[]): Pod {
  return admitPriorityInPlace(structuredClone(pod), classes);
}

/**
 * admitPriority writing into `pod` itself: for callers that own a fresh copy (defaultPod's), which
 * spares a second deep copy of every pod of a large dump.
 */
export function admitPriorityInPlace(pod: Pod, classes: readonly PriorityClass[]): Pod {
  const resolved = resolvePodPriority(pod, classes);
  const spec = pod.spec;
  if (spec?.priority !== undefined && spec.priority !== null && spec.priority !== resolved.priority) {
    throw new AdmissionError(
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${resolved.priority} from the given PriorityClass name`,
    );
  }
  if (spec?.preemptionPolicy && spec.preemptionPolicy !== resolved.preemptionPolicy) {
    throw new AdmissionError(
      `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`,
    );
  }
  pod.spec ??= { containers: [] };
  pod.spec.priority = resolved.priority;
  pod.spec.preemptionPolicy = resolved.preemptionPolicy;
  if (resolved.className !== undefined) pod.spec.priorityClassName = resolved.className;
  return pod;
}

/** spec.priority, or 0 when unset (corev1helpers.PodPriority). */
export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}
