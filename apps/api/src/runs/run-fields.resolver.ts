import { Args, Context, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { PlacementStatus, RunStatus } from '@schedlab/db';
import { CurrentTenant, type TenantAuth } from '../auth/auth-context';
import { ApiError } from '../common/api-error';
import { defined } from '../common/graphql-args';
import { JsonScalar } from '../common/json.scalar';
import { loaderFor } from '../graphql/loaders';
import { toConnection } from '../graphql/connection';
import { PlacementConnection, perItem } from '../graphql/pages';
import { FIELD_COST } from '../graphql/query-limits';
import { ScenarioView } from '../scenarios/scenario.model';
import { ScenariosService } from '../scenarios/scenarios.service';
import { SnapshotView } from '../snapshots/snapshot.model';
import { SnapshotsService } from '../snapshots/snapshots.service';
import { explanationQuerySchema, placementQuerySchema } from './run-input';
import { ExplanationDetail, RunResultView, RunView, UnschedulableGroup } from './run.model';
import { RunsService } from './runs.service';

type GqlContext = { loaders?: Map<string, never> };

/** Nested fields of a run: related rows through per-request DataLoaders, results on demand. */
@Resolver(() => RunView)
export class RunFieldsResolver {
  constructor(
    private readonly snapshots: SnapshotsService,
    private readonly scenarios: ScenariosService,
    private readonly runs: RunsService,
  ) {}

  @ResolveField(() => SnapshotView, { nullable: true, description: 'null once hard-deleted' })
  snapshot(@Parent() run: RunView, @CurrentTenant() auth: TenantAuth, @Context() ctx: GqlContext) {
    return loaderFor(ctx, 'snapshot', auth.tenantId, (ids) =>
      this.snapshots.getMany(auth.tenantId, ids),
    ).load(run.snapshotId);
  }

  @ResolveField(() => ScenarioView, { nullable: true })
  scenario(@Parent() run: RunView, @CurrentTenant() auth: TenantAuth, @Context() ctx: GqlContext) {
    if (!run.scenarioId) return null;
    return loaderFor(ctx, 'scenario', auth.tenantId, (ids) =>
      this.scenarios.getMany(auth.tenantId, ids),
    ).load(run.scenarioId);
  }

  @ResolveField(() => RunResultView, {
    nullable: true,
    description: 'null until the run has succeeded',
    complexity: FIELD_COST.result,
  })
  async result(@Parent() run: RunView, @CurrentTenant() auth: TenantAuth) {
    if (run.status !== RunStatus.succeeded) return null;
    try {
      return await this.runs.result(auth.tenantId, run.id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'result_not_ready') return null;
      throw error;
    }
  }

  @ResolveField(() => PlacementConnection, { complexity: perItem })
  async placements(
    @Parent() run: RunView,
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
    @Args('status', { type: () => PlacementStatus, nullable: true }) status?: PlacementStatus,
    @Args('node', { nullable: true }) node?: string,
    @Args('namespace', { nullable: true }) namespace?: string,
    @Args('ownerKind', { nullable: true }) ownerKind?: string,
    @Args('ownerName', { nullable: true }) ownerName?: string,
  ) {
    const query = placementQuerySchema.parse(
      defined({ limit: first, cursor: after, status, node, namespace, ownerKind, ownerName }),
    );
    return toConnection(await this.runs.placements(auth.tenantId, run.id, query), (p) => p.ordinal);
  }

  @ResolveField(() => [UnschedulableGroup], { complexity: FIELD_COST.unschedulable })
  unschedulable(@Parent() run: RunView, @CurrentTenant() auth: TenantAuth) {
    return this.runs.unschedulable(auth.tenantId, run.id);
  }

  @ResolveField(() => JsonScalar, {
    description:
      "The engine's explanation for one pod: the stored compact record, or (detail: full, or one node) the full record recomputed by replaying the run up to the pod",
    // A replay schedules every pod before this one: ten times a stored record's cost.
    complexity: ({ args }) =>
      args.detail === 'full' || args.node ? 10 * FIELD_COST.explanation : FIELD_COST.explanation,
  })
  explanation(
    @Parent() run: RunView,
    @CurrentTenant() auth: TenantAuth,
    @Args('namespace') namespace: string,
    @Args('name') name: string,
    @Args('detail', { type: () => ExplanationDetail, nullable: true }) detail?: ExplanationDetail,
    @Args('node', { nullable: true }) node?: string,
  ) {
    const query = explanationQuerySchema.parse(defined({ detail, node }));
    return this.runs.explanation(auth.tenantId, run.id, namespace, name, query);
  }
}
