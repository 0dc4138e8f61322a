/**
 * The one seam between the rescheduling what-if and @schedlab/descheduler: the policy read and
 * one descheduling pass, with the evictions in the runner's order.
 */
import * as descheduler from '@schedlab/descheduler';
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

/**
 * @schedlab/descheduler's runner. Looked up by name while the runner is being written
 * (issue #19): a clear error until it is exported.
 */
export const runDescheduler: DeschedulerRunner = (objects, policy, options) => {
  const run = (descheduler as Record<string, unknown>).deschedule as DeschedulerRunner | undefined;
  if (typeof run !== 'function') throw new Error('@schedlab/descheduler does not export its runner yet');
  return run(objects, policy, options);
};
