import type { Pod } from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import { MaybeStatus, Status } from '../../status';

/**
 * From 1.27/1.28 the volume filters gained a PreFilter that returns Skip when the pod has no
 * volume they look at, so their Filter is not run at all. (In 1.26 they have no PreFilter; the
 * configuration loader only registers these at PreFilter for the releases that have them.)
 */
export function skipUnlessPodHasVolume(pod: Pod, concerns: (v: Volume) => boolean): { status: MaybeStatus } {
  return { status: (pod.spec?.volumes ?? []).some(concerns) ? null : Status.skip() };
}

export const isClaimVolume = (v: Volume): boolean => !!v.persistentVolumeClaim || !!v.ephemeral;

/** Volumes the attach limits count: claims, ephemeral claims, CSI and migratable in-tree disks. */
export const isAttachableVolume = (v: Volume): boolean =>
  isClaimVolume(v) || !!v.csi || !!v.awsElasticBlockStore || !!v.gcePersistentDisk || !!v.azureDisk || !!v.cinder;
