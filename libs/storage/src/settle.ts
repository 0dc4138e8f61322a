/**
 * What a cluster does to a dump before any pod is scheduled: the PV controller binds or
 * provisions unbound claims (Immediate classes get a volume in a zone chosen without regard to
 * pods). Callers schedule the settled items, so a claim provisioned in the wrong zone shows up as
 * the volume node affinity conflict the cluster would report.
 */
import type { KubeObject } from '@schedlab/k8s';
import { buildClusterState, withStorageObjects, type ClusterState } from '@schedlab/scheduler';
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
  /**
   * With a `known` state: what buildClusterState would return for `items` (the known state
   * itself when the dump is left untouched).
   */
  state?: ClusterState;
}

const STORAGE_KINDS = new Set(['PersistentVolume', 'PersistentVolumeClaim']);

/**
 * `known`, when given, is buildClusterState's result for exactly `items` (the CLI has it from
 * loading the dump): the controller then starts from its nodes and defaulted objects instead of
 * building them again, and the result carries the state of the settled items, so a large dump
 * is not defaulted twice more.
 */
export function settleImmediateClaims(
  items: readonly KubeObject[],
  options: ControllerOptions = {},
  known?: ClusterState,
): SettledClaims {
  // Without claims the controller has nothing to bind or provision: leave the dump untouched.
  if (!items.some((o) => o.kind === 'PersistentVolumeClaim'))
    return { items: [...items], events: [], errors: [], ...(known ? { state: known } : {}) };
  // The controller reads claims, volumes, classes and nodes, never pods: no need to build
  // (default and admit) every pod of a large dump here only to drop it again.
  const cluster: ClusterState = known
    ? {
        ...known,
        objects: known.objects.withOwnStorage(),
        runningPods: [],
        pendingPods: [],
        orphanPods: [],
      }
    : buildClusterState(items.filter((o) => o.kind !== 'Pod'));
  const state = StorageState.fromCluster(cluster, options, { phases: false });
  const o = state.cluster.objects;
  // Every other object (workloads, namespaces, quotas…) stays as the dump had it, in its order.
  // (concat: spreading tens of thousands of objects into a literal grows it step by step.)
  const settled = items
    .filter((x) => !STORAGE_KINDS.has(x.kind))
    .concat(
      o.persistentVolumes.list() as unknown as KubeObject[],
      o.persistentVolumeClaims.list() as unknown as KubeObject[],
    );
  return {
    items: settled,
    events: [...state.events],
    errors: state.errors,
    ...(known ? { state: withStorageObjects(known, o) } : {}),
  };
}
