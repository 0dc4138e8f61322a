/** Fixtures of the timeline specs. */
import type { KubeObject } from '@schedlab/k8s';

/** PriorityClasses p0, p50, p100 and p1000: arrivals get their priority from one, as admitted. */
export const timelinePriorityClasses: KubeObject[] = [0, 50, 100, 1000].map(
  (value) =>
    ({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: `p${value}` },
      value,
    }) as KubeObject,
);
