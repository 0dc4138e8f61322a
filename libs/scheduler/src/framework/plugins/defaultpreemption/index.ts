import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { DefaultPreemptionArgs, defaultArgs, validateArgs } from './args';
import { DefaultPreemption } from './default-preemption';

export * from './args';
export * from './default-preemption';
export { filterPodsWithPDBViolation } from './pdb';

export const descriptor: PluginDescriptor<DefaultPreemptionArgs> = {
  name: PluginNames.DefaultPreemption,
  argsKind: 'DefaultPreemptionArgs',
  defaultArgs: (raw) => defaultArgs(raw),
  validateArgs: (args) => validateArgs(args),
  create: (args, handle) =>
    new DefaultPreemption(args, handle, handle.randomInt ? { randomInt: (n) => handle.randomInt!(n) } : {}),
};
