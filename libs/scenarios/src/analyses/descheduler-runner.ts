/**
 * The one seam between the rescheduling what-if and @schedlab/descheduler: one descheduling
 * cycle of a policy, its evictions in the runner's order, and the limits that stopped it.
 */
import { deschedule as runCycle, type DeschedulingOptions } from '@schedlab/descheduler';
import { canonicalJson, type KubeObject } from '@schedlab/k8s';

export interface RunnerEviction {
  /** `namespace/name` */
  pod: string;
  node: string;
  profile: string;
  strategy: string;
  /** The descheduler's reason, in its words. */
  reason: string;
  /** What the plugin saw, when it says (e.g. the taint not tolerated). */
  detail?: string;
}

export interface DeschedulingPass {
  evictions: RunnerEviction[];
  /** Which eviction limit was reached, e.g. `maxNoOfPodsToEvictPerNode (2) on node-a`. */
  limits: string[];
  /** Evictions a limit or a PodDisruptionBudget refused. */
  refused: number;
  /** Set when the cycle did not run, in the descheduler's words. */
  skipped?: string;
}

export type RunnerOptions = Pick<DeschedulingOptions, 'now' | 'podFitsNode'>;

export type DeschedulerRunner = (
  objects: readonly KubeObject[],
  policy: unknown,
  options: RunnerOptions,
) => DeschedulingPass;

/** @schedlab/descheduler's cycle (policy validated there: a PolicyError names profile, plugin and field). */
export const runDescheduler: DeschedulerRunner = (objects, policy, options) => {
  // Keys in one order whatever the transport kept (PostgreSQL's jsonb reorders them), so what
  // the plugins print from maps such as thresholds reads the same from the CLI and a stored run.
  const canonical =
    typeof policy === 'object' && policy !== null ? JSON.parse(canonicalJson(policy)) : policy;
  const result = runCycle(objects, canonical, options);
  const { reached } = result.limits;
  const limits = [
    ...(reached.total ? [`maxNoOfPodsToEvictTotal (${result.limits.maxNoOfPodsToEvictTotal})`] : []),
    ...reached.nodes.map(
      (n) => `maxNoOfPodsToEvictPerNode (${result.limits.maxNoOfPodsToEvictPerNode}) on ${n}`,
    ),
    ...reached.namespaces.map(
      (ns) => `maxNoOfPodsToEvictPerNamespace (${result.limits.maxNoOfPodsToEvictPerNamespace}) in ${ns}`,
    ),
  ];
  return {
    evictions: result.evictions.map((e) => ({
      pod: e.pod,
      node: e.node,
      profile: e.profile,
      strategy: e.strategy,
      reason: e.reason,
      ...(e.detail ? { detail: e.detail } : {}),
    })),
    limits,
    refused: result.refused.length,
    ...(result.skipped ? { skipped: result.skipped } : {}),
  };
};
