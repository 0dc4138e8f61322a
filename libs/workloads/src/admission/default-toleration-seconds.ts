// DefaultTolerationSeconds: pods tolerate not-ready/unreachable NoExecute taints for 300s unless they say otherwise.
import type { Pod, Toleration } from '@schedlab/k8s';

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
export const DEFAULT_TOLERATION_SECONDS = 300;

function covers(t: Toleration, key: string): boolean {
  return (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect);
}

export function admitDefaultTolerationSeconds(pod: Pod, seconds = DEFAULT_TOLERATION_SECONDS): Pod {
  const tolerations = pod.spec?.tolerations ?? [];
  const added: Toleration[] = [];
  for (const key of [NOT_READY_TAINT, UNREACHABLE_TAINT]) {
    if (!tolerations.some((t) => covers(t, key)))
      added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  }
  if (added.length === 0) return pod;
  return { ...pod, spec: { ...pod.spec!, tolerations: [...tolerations, ...added] } };
}
