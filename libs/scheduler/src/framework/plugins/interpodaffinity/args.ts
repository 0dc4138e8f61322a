/** InterPodAffinityArgs (kubescheduler.config.k8s.io/v1): defaulting and validation as upstream. */
import type { FeatureSet } from '../../../features';
import type { ArgsError } from '../../runtime/registry';

export const INTER_POD_AFFINITY_ARGS_KIND = 'InterPodAffinityArgs';

export const DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1;
export const MIN_HARD_POD_AFFINITY_WEIGHT = 0;
export const MAX_HARD_POD_AFFINITY_WEIGHT = 100;

export interface InterPodAffinityArgs {
  /** Score given to nodes in the domain of an existing pod whose *required* affinity term the incoming pod matches. */
  hardPodAffinityWeight: number;
  /** When set, a pod without preferred (anti-)affinity terms is not scored for existing pods' terms (1.27+ field). */
  ignorePreferredTermsOfExistingPods: boolean;
}

interface RawArgs {
  hardPodAffinityWeight?: number | null;
  ignorePreferredTermsOfExistingPods?: boolean | null;
}

/** v1 defaulting: an unset (nil) hardPodAffinityWeight becomes 1; an explicit 0 stays 0. */
export function defaultArgs(raw: unknown, _features?: FeatureSet): InterPodAffinityArgs {
  const r = (raw ?? {}) as RawArgs;
  return {
    hardPodAffinityWeight:
      r.hardPodAffinityWeight === undefined || r.hardPodAffinityWeight === null
        ? DEFAULT_HARD_POD_AFFINITY_WEIGHT
        : r.hardPodAffinityWeight,
    ignorePreferredTermsOfExistingPods: r.ignorePreferredTermsOfExistingPods === true,
  };
}

/** Upstream ValidateInterPodAffinityArgs: only the weight's range is checked. */
export function validateArgs(args: InterPodAffinityArgs, _features?: FeatureSet): ArgsError[] {
  const w = args.hardPodAffinityWeight;
  if (!Number.isInteger(w) || w < MIN_HARD_POD_AFFINITY_WEIGHT || w > MAX_HARD_POD_AFFINITY_WEIGHT) {
    return [
      {
        field: 'hardPodAffinityWeight',
        message: `Invalid value: ${w}: not in valid range [${MIN_HARD_POD_AFFINITY_WEIGHT}-${MAX_HARD_POD_AFFINITY_WEIGHT}]`,
      },
    ];
  }
  return [];
}
