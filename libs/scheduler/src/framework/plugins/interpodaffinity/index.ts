/** InterPodAffinity: required and preferred inter-pod (anti-)affinity, with symmetry. */
import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { INTER_POD_AFFINITY_ARGS_KIND, type InterPodAffinityArgs, defaultArgs, validateArgs } from './args';
import { InterPodAffinity } from './plugin';

export { InterPodAffinity } from './plugin';
export {
  DEFAULT_HARD_POD_AFFINITY_WEIGHT,
  INTER_POD_AFFINITY_ARGS_KIND,
  MAX_HARD_POD_AFFINITY_WEIGHT,
  MIN_HARD_POD_AFFINITY_WEIGHT,
  type InterPodAffinityArgs,
  defaultArgs,
  validateArgs,
} from './args';
export {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  PRE_FILTER_STATE_KEY,
  PreFilterState,
} from './filtering';
export { PRE_SCORE_STATE_KEY, PreScoreState } from './scoring';
export { MATCH_LABEL_KEYS_GATE } from './terms';
export { TopologyCounts } from './topology-counts';

export const descriptor: PluginDescriptor<InterPodAffinityArgs> = {
  name: PluginNames.InterPodAffinity,
  argsKind: INTER_POD_AFFINITY_ARGS_KIND,
  defaultArgs,
  validateArgs,
  create: (args, handle) => new InterPodAffinity(args, handle),
};
