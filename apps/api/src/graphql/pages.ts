import { Field, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from './connection';
import { PlacementView, RunView } from '../runs/run.model';
import { ScenarioView } from '../scenarios/scenario.model';
import { SnapshotView } from '../snapshots/snapshot.model';

/**
 * Cost of a paginated field: a page read (10) plus its children times the page size asked for.
 * `first` is clamped to 1..1000 (the largest page), so a negative or absurd value cannot make
 * a query look cheap; such a value is then refused by the field's own validation.
 */
export const perItem = ({
  args,
  childComplexity,
}: {
  args: { first?: number | null };
  childComplexity: number;
}) => {
  const first = typeof args.first === 'number' && Number.isFinite(args.first) ? args.first : 50;
  return 10 + Math.max(1, childComplexity) * Math.min(1000, Math.max(1, Math.trunc(first)));
};

export const SnapshotConnection = ConnectionType(SnapshotView, 'Snapshot');
export const ScenarioConnection = ConnectionType(ScenarioView, 'Scenario');
export const RunConnection = ConnectionType(RunView, 'Run');
export const PlacementConnection = ConnectionType(PlacementView, 'Placement');

@ObjectType('SnapshotImport')
export class SnapshotImportView {
  @Field(() => SnapshotView) snapshot!: SnapshotView;
  @Field(() => Boolean, { description: 'Identical content was already stored; that snapshot is returned' })
  duplicate!: boolean;
}
