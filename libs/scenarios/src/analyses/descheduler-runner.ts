/**
 * The one seam between the rescheduling what-if and @schedlab/descheduler: the policy read and
 * one descheduling pass, with the evictions in the runner's order.
 */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';

export interface RunnerEviction {
  /** `namespace/name` */
  pod: string;
  node: string;
  profile: string;
  strategy: string;
  reason: string;
}

export interface DeschedulingPass {
  evictions: RunnerEviction[];
  /** Which eviction limit stopped what, in the runner's words. */
  limits: string[];
}

export interface RunnerOptions {
  now: number;
  podFitsNode(pod: Pod, node: Node): boolean;
}

export type DeschedulerRunner = (
  objects: readonly KubeObject[],
  policy: unknown,
  options: RunnerOptions,
) => DeschedulingPass;
