/**
 * What a cluster does to a dump before any pod is scheduled: the PV controller binds or
 * provisions unbound claims (Immediate classes get a volume in a zone chosen without regard to
 * pods). Callers schedule the settled items, so a claim provisioned in the wrong zone shows up as
 * the volume node affinity conflict the cluster would report.
 */
import type { KubeObject } from '@schedlab/k8s';
import type { StorageEvent } from './events';
import type { ControllerOptions, StorageObjectError } from './pv-controller';
import { StorageState } from './storage-state';

export interface SettledClaims {
  /** The dump's items, with PersistentVolumes and PersistentVolumeClaims as the controller leaves them. */
  items: KubeObject[];
  /** Events the controller and provisioner recorded (what `kubectl describe pvc` would show). */
  events: StorageEvent[];
  /** Objects the controller could not act on; they are left as they were. */
  errors: StorageObjectError[];
}

const STORAGE_KINDS = new Set(['PersistentVolume', 'PersistentVolumeClaim']);

export function settleImmediateClaims(
  items: readonly KubeObject[],
  options: ControllerOptions = {},
): SettledClaims {
  // Without claims the controller has nothing to bind or provision: leave the dump untouched.
  if (!items.some((o) => o.kind === 'PersistentVolumeClaim'))
    return { items: [...items], events: [], errors: [] };
  // The controller reads claims, volumes, classes and nodes, never pods: no need to build
  // (default and admit) every pod of a large dump here only to drop it again.
  const state = StorageState.fromItems(
    items.filter((o) => o.kind !== 'Pod'),
    options,
  );
  const o = state.cluster.objects;
  const storage = [
    ...o.persistentVolumes.list(),
    ...o.persistentVolumeClaims.list(),
  ] as unknown as KubeObject[];
  // Every other object (workloads, namespaces, quotas…) stays as the dump had it, in its order.
  return {
    items: [...items.filter((x) => !STORAGE_KINDS.has(x.kind)), ...storage],
    events: [...state.events],
    errors: state.errors,
  };
}
