import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { PodTopologySpreadArgs, defaultArgs, validateArgs } from './args';
import { PodTopologySpread } from './plugin';

export {
  PodTopologySpread,
  ERR_REASON_CONSTRAINTS_NOT_MATCH,
  ERR_REASON_NODE_LABEL_NOT_MATCH,
  PRE_FILTER_STATE_KEY,
  PRE_SCORE_STATE_KEY,
} from './plugin';
export {
  PodTopologySpreadArgs,
  DefaultingType,
  SYSTEM_DEFAULTING,
  LIST_DEFAULTING,
  SYSTEM_DEFAULT_CONSTRAINTS,
  defaultArgs,
  validateArgs,
} from './args';
export { defaultSelector } from './default-selector';

export const descriptor: PluginDescriptor<PodTopologySpreadArgs> = {
  name: PluginNames.PodTopologySpread,
  argsKind: 'PodTopologySpreadArgs',
  defaultArgs,
  validateArgs,
  create: (args, handle) => new PodTopologySpread(args, handle),
};
