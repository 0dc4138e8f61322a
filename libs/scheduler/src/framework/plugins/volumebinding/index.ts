import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { VolumeBindingArgs, defaultVolumeBindingArgs, validateVolumeBindingArgs } from './args';
import { VolumeBinding } from './volume-binding';

export {
  VolumeBinding,
  VolumeBindingState,
  reservedVolumeBindings,
  ERR_REASON_UNBOUND_IMMEDIATE,
  VOLUME_BINDING_STATE_KEY,
} from './volume-binding';
export {
  ERR_REASON_BIND_CONFLICT,
  ERR_REASON_NODE_CONFLICT,
  ERR_REASON_NOT_ENOUGH_SPACE,
  ERR_REASON_PV_NOT_EXIST,
  findPodVolumes,
  getPodVolumeClaims,
} from './binder';
export type { PodVolumes, PodVolumeClaims, StaticBinding } from './binder';
export { applyVolumeBindings } from './apply';
export type { VolumeBindingDecisions, VolumeBindingResult } from './apply';
export { defaultVolumeBindingArgs, validateVolumeBindingArgs } from './args';
export type { VolumeBindingArgs } from './args';
export * as pvHelpers from './pv-helpers';

export const descriptor: PluginDescriptor<VolumeBindingArgs> = {
  name: PluginNames.VolumeBinding,
  argsKind: 'VolumeBindingArgs',
  defaultArgs: defaultVolumeBindingArgs,
  validateArgs: validateVolumeBindingArgs,
  create: (args, handle) => new VolumeBinding(args, handle),
};
