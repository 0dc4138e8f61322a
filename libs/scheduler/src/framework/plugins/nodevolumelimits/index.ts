import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { CSILimits } from './csi';
import { newAzureDiskLimits, newEBSLimits, newGCEPDLimits } from './non-csi';

export { CSILimits } from './csi';
export {
  NonCSILimits,
  newEBSLimits,
  newGCEPDLimits,
  newAzureDiskLimits,
  EBS_VOLUME_FILTER,
  GCE_PD_VOLUME_FILTER,
  AZURE_DISK_VOLUME_FILTER,
  DEFAULT_MAX_EBS_VOLUMES,
  DEFAULT_MAX_EBS_NITRO_VOLUMES,
  DEFAULT_MAX_GCE_PD_VOLUMES,
  DEFAULT_MAX_AZURE_DISK_VOLUMES,
} from './non-csi';
export { ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, csiAttachLimitKey, isCSIMigrationOn } from './common';

/** NodeVolumeLimits: the CSI attach limits. */
export const descriptor: PluginDescriptor = {
  name: PluginNames.NodeVolumeLimits,
  create: (_args, handle) => new CSILimits(handle),
};

export const ebsLimitsDescriptor: PluginDescriptor = {
  name: PluginNames.EBSLimits,
  create: (_args, handle) => newEBSLimits(handle),
};

export const gcePDLimitsDescriptor: PluginDescriptor = {
  name: PluginNames.GCEPDLimits,
  create: (_args, handle) => newGCEPDLimits(handle),
};

export const azureDiskLimitsDescriptor: PluginDescriptor = {
  name: PluginNames.AzureDiskLimits,
  create: (_args, handle) => newAzureDiskLimits(handle),
};

export const descriptors: PluginDescriptor[] = [
  descriptor,
  ebsLimitsDescriptor,
  gcePDLimitsDescriptor,
  azureDiskLimitsDescriptor,
];
