/**
 * Events the storage controllers record, with upstream reasons and wording
 * (pkg/controller/volume/events, the PV controller and the CSI external provisioner).
 */
export type EventType = 'Normal' | 'Warning';

export interface StorageEvent {
  /** `PersistentVolumeClaim/<ns>/<name>` or `PersistentVolume/<name>`. */
  object: string;
  type: EventType;
  reason: string;
  message: string;
  /** Component that records it, as `kubectl describe` shows in From. */
  source: string;
  /** Step of the storage timeline at which it happened. */
  step: number;
}

export const PV_CONTROLLER = 'persistentvolume-controller';
export const EXPAND_CONTROLLER = 'volume_expand';

export const Reasons = {
  FailedBinding: 'FailedBinding',
  WaitForFirstConsumer: 'WaitForFirstConsumer',
  ExternalProvisioning: 'ExternalProvisioning',
  Provisioning: 'Provisioning',
  ProvisioningFailed: 'ProvisioningFailed',
  ProvisioningSucceeded: 'ProvisioningSucceeded',
  ClaimLost: 'ClaimLost',
  VolumeRecycled: 'VolumeRecycled',
  VolumeFailedRecycle: 'VolumeFailedRecycle',
  VolumeFailedDelete: 'VolumeFailedDelete',
  ExternalExpanding: 'ExternalExpanding',
} as const;

export const Messages = {
  waitForFirstConsumer: 'waiting for first consumer to be created before binding',
  noClassNoVolumes: 'no persistent volumes available for this claim and no storage class is set',
  claimLost: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
  volumeRecycled: 'Volume recycled',
  storageClassNotFound: (name: string) => `storageclass.storage.k8s.io "${name}" not found`,
  noProvisionablePlugin: (provisioner: string) => `no volume plugin matched name: ${provisioner}`,
  /** Wording up to 1.27; 1.28 rephrased it (see externalProvisioning). */
  externalProvisioningLegacy: (provisioner: string) =>
    `waiting for a volume to be created, either by external provisioner "${provisioner}" or manually created by system administrator`,
  externalProvisioning: (provisioner: string) =>
    `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
  provisioning: (claimKey: string) => `External provisioner is provisioning volume for claim "${claimKey}"`,
  provisioningSucceeded: (pvName: string) => `Successfully provisioned volume ${pvName}`,
  provisioningFailedNoTopology: (className: string) =>
    `failed to provision volume with StorageClass "${className}": no topology segment of the driver satisfies allowedTopologies and capacity`,
  noDeletablePlugin: 'no deletable volume plugin matched',
  noRecyclablePlugin: 'no recyclable volume plugin matched',
  externalExpanding: 'waiting for an external controller to expand this PVC',
} as const;
