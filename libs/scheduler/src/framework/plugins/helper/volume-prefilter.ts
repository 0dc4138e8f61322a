import type { Pod } from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import type { CycleState } from '../../cycle-state';
import type { PreFilterPlugin, PreFilterResult } from '../../interface';
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
  isClaimVolume(v) ||
  !!v.csi ||
  !!v.awsElasticBlockStore ||
  !!v.gcePersistentDisk ||
  !!v.azureDisk ||
  !!v.cinder;

/**
 * PreFilter and the no-volume short-cut the CSI and in-tree volume limit filters share: both skip
 * pods without attachable volumes, and a pod without any volume needs nothing from a node.
 */
export abstract class VolumeLimitsPreFilter implements PreFilterPlugin {
  abstract readonly name: string;

  preFilter(_state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    return skipUnlessPodHasVolume(pod, isAttachableVolume);
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  filterPassesAllNodes(_state: CycleState, pod: Pod): boolean {
    return (pod.spec?.volumes ?? []).length === 0;
  }
}
