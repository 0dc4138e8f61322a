import { Field, ObjectType } from '@nestjs/graphql';
import { RunView } from '../runs/run.model';
import { ScenarioView } from '../scenarios/scenario.model';
import { SnapshotView } from '../snapshots/snapshot.model';

/** Cost of a paginated field: its children times the page size asked for. */
export const perItem = ({ args, childComplexity }: { args: { first?: number }; childComplexity: number }) =>
  1 + childComplexity * (args.first ?? 50);

@ObjectType('SnapshotPage')
export class SnapshotPageView {
  @Field(() => [SnapshotView]) items!: SnapshotView[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
}

@ObjectType('ScenarioPage')
export class ScenarioPageView {
  @Field(() => [ScenarioView]) items!: ScenarioView[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
}

@ObjectType('SimulationRunPage')
export class RunPageView {
  @Field(() => [RunView]) items!: RunView[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
}

@ObjectType('SnapshotImport')
export class SnapshotImportView {
  @Field(() => SnapshotView) snapshot!: SnapshotView;
  @Field(() => Boolean, { description: 'Identical content was already stored; that snapshot is returned' })
  duplicate!: boolean;
}
