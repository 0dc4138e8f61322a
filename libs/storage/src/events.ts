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
export const STATEFULSET_CONTROLLER = 'statefulset-controller';
export const SCHEDULER = 'default-scheduler';

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
  /** The CSI external-resizer's and the kubelet's part in an expansion. */
  Resizing: 'Resizing',
  FileSystemResizeRequired: 'FileSystemResizeRequired',
  FileSystemResizeSuccessful: 'FileSystemResizeSuccessful',
  /** The scheduler's pod events. */
  Scheduled: 'Scheduled',
  FailedScheduling: 'FailedScheduling',
  /** The StatefulSet controller's events on the set (Successful<Verb>). */
  SuccessfulCreate: 'SuccessfulCreate',
  SuccessfulDelete: 'SuccessfulDelete',
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
  resizing: (pvName: string) => `External resizer is resizing volume ${pvName}`,
  fileSystemResizeRequired: 'Require file system resize of volume on node',
  nodeExpandSucceeded: (pvName: string, node: string) =>
    `MountVolume.NodeExpandVolume succeeded for volume "${pvName}" ${node}`,
  /** The claim's FileSystemResizePending condition while no pod mounts the volume. */
  fileSystemResizePending:
    'Waiting for user to (re-)start a pod to finish file system resize of volume on node.',
  scheduled: (podKey: string, node: string) => `Successfully assigned ${podKey} to ${node}`,
  statefulSetPod: (verb: 'create' | 'delete', pod: string, set: string) =>
    `${verb} Pod ${pod} in StatefulSet ${set} successful`,
  statefulSetClaim: (claim: string, pod: string, set: string) =>
    `create Claim ${claim} Pod ${pod} in StatefulSet ${set} success`,
} as const;

/**
 * What a volume provisioned for a scheduled pod (WaitForFirstConsumer) leaves on its claim: the PV
 * controller hands it to the external provisioner, which provisions it.
 */
export function provisioningEvents(
  claimKey: string,
  provisioner: string,
  pvName: string,
  legacyEventWording = false,
): { reason: string; message: string; source: string }[] {
  return [
    {
      reason: Reasons.ExternalProvisioning,
      message: legacyEventWording
        ? Messages.externalProvisioningLegacy(provisioner)
        : Messages.externalProvisioning(provisioner),
      source: PV_CONTROLLER,
    },
    { reason: Reasons.Provisioning, message: Messages.provisioning(claimKey), source: provisioner },
    {
      reason: Reasons.ProvisioningSucceeded,
      message: Messages.provisioningSucceeded(pvName),
      source: provisioner,
    },
  ];
}

export const KUBELET = 'kubelet';

/**
 * What an admitted expansion leaves on the claim: the in-tree expand controller hands it to the
 * CSI external-resizer, which grows the volume and asks for a file system resize on the node;
 * the kubelet of a node where a pod mounts the volume finishes it (none: it waits for a pod).
 */
export function expansionEvents(
  provisioner: string,
  pvName: string,
  mountedOn: string | undefined,
): { reason: string; message: string; source: string }[] {
  const resizer = `external-resizer ${provisioner}`;
  return [
    { reason: Reasons.ExternalExpanding, message: Messages.externalExpanding, source: EXPAND_CONTROLLER },
    { reason: Reasons.Resizing, message: Messages.resizing(pvName), source: resizer },
    { reason: Reasons.FileSystemResizeRequired, message: Messages.fileSystemResizeRequired, source: resizer },
    ...(mountedOn
      ? [
          {
            reason: Reasons.FileSystemResizeSuccessful,
            message: Messages.nodeExpandSucceeded(pvName, mountedOn),
            source: KUBELET,
          },
        ]
      : []),
  ];
}
