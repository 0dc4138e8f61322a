import type { FeatureSet } from '../../../features';
import type { ArgsError } from '../../runtime/registry';

export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}

export interface VolumeBindingArgs {
  bindTimeoutSeconds: number;
  /** Only with the VolumeCapacityPriority gate (alpha; off in every supported release). */
  shape?: UtilizationShapePoint[];
}

export const VOLUME_CAPACITY_PRIORITY_GATE = 'VolumeCapacityPriority';
/** VolumeCapacityPriority's successor (1.33), on by default from 1.37: favours fuller volumes. */
export const STORAGE_CAPACITY_SCORING_GATE = 'StorageCapacityScoring';
const DEFAULT_BIND_TIMEOUT_SECONDS = 600;

/** kubescheduler.config.k8s.io/v1 defaults: 600s bind timeout; the default shape only with the gate on. */
export function defaultVolumeBindingArgs(raw: unknown, features: FeatureSet): VolumeBindingArgs {
  const r = (raw ?? {}) as Partial<VolumeBindingArgs>;
  const args: VolumeBindingArgs = {
    bindTimeoutSeconds: r.bindTimeoutSeconds ?? DEFAULT_BIND_TIMEOUT_SECONDS,
  };
  if (r.shape !== undefined) args.shape = r.shape;
  else if (features.enabled(STORAGE_CAPACITY_SCORING_GATE)) {
    // Least utilized volume first: an empty volume scores 10, a full one 0.
    args.shape = [
      { utilization: 0, score: 10 },
      { utilization: 100, score: 0 },
    ];
  } else if (features.enabled(VOLUME_CAPACITY_PRIORITY_GATE)) {
    args.shape = [
      { utilization: 0, score: 0 },
      { utilization: 100, score: 10 },
    ];
  }
  return args;
}

/** Upstream ValidateVolumeBindingArgsWithOptions. */
export function validateVolumeBindingArgs(args: VolumeBindingArgs, features: FeatureSet): ArgsError[] {
  const errs: ArgsError[] = [];
  if (args.bindTimeoutSeconds < 0) {
    errs.push({
      field: 'bindTimeoutSeconds',
      message: `Invalid value: ${args.bindTimeoutSeconds}: invalid BindTimeoutSeconds, should not be a negative value`,
    });
  }
  if (!features.enabled(VOLUME_CAPACITY_PRIORITY_GATE) && !features.enabled(STORAGE_CAPACITY_SCORING_GATE)) {
    if (args.shape !== undefined) {
      errs.push({
        field: 'shape',
        message: 'Invalid value: unsupported when VolumeCapacityPriority is disabled',
      });
    }
    return errs;
  }
  const shape = args.shape ?? [];
  if (shape.length === 0)
    errs.push({ field: 'shape', message: 'Required value: at least one point must be specified' });
  shape.forEach((p, i) => {
    if (i > 0 && shape[i - 1].utilization >= p.utilization) {
      errs.push({
        field: `shape[${i}].utilization`,
        message: `Invalid value: ${p.utilization}: utilization values must be sorted in increasing order`,
      });
    }
    if (p.utilization < 0 || p.utilization > 100) {
      errs.push({
        field: `shape[${i}].utilization`,
        message: `Invalid value: ${p.utilization}: not in valid range [0, 100]`,
      });
    }
    if (p.score < 0 || p.score > 10) {
      errs.push({
        field: `shape[${i}].score`,
        message: `Invalid value: ${p.score}: not in valid range [0, 10]`,
      });
    }
  });
  return errs;
}
