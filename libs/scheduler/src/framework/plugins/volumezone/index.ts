import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { VolumeZone } from './volume-zone';

export {
  VolumeZone,
  ERR_REASON_VOLUME_ZONE_CONFLICT,
  VOLUME_ZONE_LABELS,
  labelZonesToSet,
} from './volume-zone';

export const descriptor: PluginDescriptor = {
  name: PluginNames.VolumeZone,
  create: (_args, handle) => new VolumeZone(handle),
};
