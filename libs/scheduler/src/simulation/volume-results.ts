/**
 * The API writes VolumeBinding's PreBind stands for (claims bound to PVs, volumes provisioned),
 * applied to the simulated cluster objects, as the PV controller and provisioner would finish them.
 */
import type { ClusterObjects } from '../backend/cache/cluster-objects';
import type { CycleState } from '../framework/cycle-state';
import { applyVolumeBindings, reservedVolumeBindings } from '../framework/plugins/volumebinding';
import type { VolumeBindingSummary } from './results';

export function applyPreBindVolumeWrites(
  state: CycleState,
  objects: ClusterObjects,
): VolumeBindingSummary | undefined {
  const applied = applyVolumeBindings(objects, reservedVolumeBindings(state));
  if (!applied) return undefined;
  const summary: VolumeBindingSummary = {};
  if (applied.staticBindings) summary.staticBindings = applied.staticBindings;
  if (applied.provisioned) summary.provisioned = applied.provisioned;
  if (applied.selectedNode) summary.selectedNode = applied.selectedNode;
  return Object.keys(summary).length > 0 ? summary : undefined;
}
