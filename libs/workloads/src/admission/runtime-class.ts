// RuntimeClass admission: the class must exist; its pod overhead and scheduling constraints are merged into the pod.
import type { Pod, Toleration } from '@schedlab/k8s';
import { toQuantityList } from './resource-list';

export interface RuntimeClass {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  handler: string;
  overhead?: { podFixed?: Record<string, string> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

function sameList(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  const qa = toQuantityList(a as Record<string, string>);
  const qb = toQuantityList(b as Record<string, string>);
  if (qa.size !== qb.size) return false;
  for (const [k, v] of qa) if (!qb.get(k)?.equals(v)) return false;
  return true;
}

function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    a.key === b.key &&
    (a.operator ?? 'Equal') === (b.operator ?? 'Equal') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/** Returns the admitted pod, or throws a reason string (wrapped into a Forbidden error by the chain). */
export function admitRuntimeClass(pod: Pod, classes: readonly RuntimeClass[]): Pod {
  const name = pod.spec?.runtimeClassName;
  if (!name) return pod;
  const rc = classes.find((c) => c.metadata?.name === name);
  if (!rc) throw new Error(`pod rejected: RuntimeClass "${name}" not found`);
  const spec = structuredClone(pod.spec!);
  const podFixed = rc.overhead?.podFixed;
  if (podFixed) {
    if (spec.overhead && !sameList(spec.overhead as Record<string, string>, podFixed)) {
      throw new Error("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    }
    spec.overhead = { ...podFixed };
  } else if (spec.overhead) {
    throw new Error('pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  }
  const selector = rc.scheduling?.nodeSelector;
  if (selector) {
    const merged = { ...(spec.nodeSelector ?? {}) };
    for (const [k, v] of Object.entries(selector)) {
      if (k in merged && merged[k] !== v) {
        throw new Error(
          `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${merged[k]}`,
        );
      }
      merged[k] = v;
    }
    spec.nodeSelector = merged;
  }
  const tolerations = rc.scheduling?.tolerations;
  if (tolerations?.length) {
    const merged = [...(spec.tolerations ?? [])];
    for (const t of tolerations) if (!merged.some((m) => sameToleration(m, t))) merged.push(t);
    spec.tolerations = merged;
  }
  return { ...pod, spec };
}
