import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { VolumeRestrictions } from './volume-restrictions';

export {
  VolumeRestrictions,
  ERR_REASON_DISK_CONFLICT,
  ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT,
  READ_WRITE_ONCE_POD_GATE,
  isVolumeConflict,
} from './volume-restrictions';

export const descriptor: PluginDescriptor = {
  name: PluginNames.VolumeRestrictions,
  create: (_args, handle) => new VolumeRestrictions(handle),
};
