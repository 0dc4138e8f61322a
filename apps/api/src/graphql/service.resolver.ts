import {
  Args,
  Context,
  ID,
  Int,
  Mutation,
  Parent,
  Query,
  ResolveField,
  Resolver,
  Subscription,
  InputType,
  Field,
} from '@nestjs/graphql';
import { PlacementStatus, RunStatus } from '@schedlab/db';
import { ApiKeyView, createApiKeySchema, CreatedApiKeyView } from '../api-keys/api-key.model';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { ApiError } from '../common/api-error';
import { parseBodyText } from '../common/body-parsing';
import { JsonScalar } from '../common/json.scalar';
import { pageQuerySchema } from '../common/pagination';
import { profileUploadQuerySchema, ProfileView } from '../profiles/profile.model';
import { ProfilesService } from '../profiles/profiles.service';
import { explanationQuerySchema, placementQuerySchema, submitRunSchema } from '../runs/run-input';
import {
  ExplanationDetail,
  FINAL_RUN_STATUSES,
  PlacementPage,
  RunProgressView,
  RunResultView,
  RunView,
  UnschedulableGroup,
} from '../runs/run.model';
import { RunProgressRelay } from '../runs/run-progress.relay';
import { RunsService } from '../runs/runs.service';
import { createScenarioSchema, ScenarioView } from '../scenarios/scenario.model';
import { ScenariosService } from '../scenarios/scenarios.service';
import { labelsSchema, snapshotImportQuerySchema, SnapshotView } from '../snapshots/snapshot.model';
import { SnapshotsService } from '../snapshots/snapshots.service';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { loaderFor } from './loaders';
import { FIELD_COST } from './query-limits';
import { perItem, RunPageView, ScenarioPageView, SnapshotImportView, SnapshotPageView } from './pages';

type GqlContext = { loaders?: Map<string, never> };

@InputType()
class SubmitSimulationInput {
  @Field(() => String) type!: string;
  @Field(() => ID) snapshotId!: string;
  @Field(() => ID, { nullable: true }) scenarioId?: string;
  @Field(() => String, { nullable: true }) profile?: string;
  @Field(() => Int, { nullable: true }) seed?: number;
  @Field(() => JsonScalar, { nullable: true }) options?: Record<string, unknown>;
}

/** Drops GraphQL's explicit nulls so the REST schemas (which reject null) apply unchanged. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}

@Resolver()
export class ServiceQueriesResolver {
  constructor(
    private readonly snapshotService: SnapshotsService,
    private readonly profileService: ProfilesService,
    private readonly scenarioService: ScenariosService,
    private readonly runs: RunsService,
    private readonly keys: ApiKeysService,
    private readonly progress: RunProgressRelay,
  ) {}

  @Query(() => SnapshotPageView, { complexity: perItem })
  @RequireScope('read')
  snapshots(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = pageQuerySchema.parse(defined({ limit: first, cursor: after }));
    return this.snapshotService.list(auth.tenantId, page.limit, page.cursor);
  }

  @Query(() => SnapshotView)
  @RequireScope('read')
  snapshot(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Snapshot')) id: string,
  ) {
    return this.snapshotService.get(auth.tenantId, id);
  }

  @Query(() => [ProfileView])
  @RequireScope('read')
  profiles(@CurrentTenant() auth: TenantAuth) {
    return this.profileService.list(auth.tenantId);
  }

  @Query(() => ProfileView, { description: '"name", "name@latest" or "name@3"' })
  @RequireScope('read')
  profile(@CurrentTenant() auth: TenantAuth, @Args('ref') ref: string) {
    return this.profileService.get(auth.tenantId, ref);
  }

  @Query(() => ScenarioPageView, { complexity: perItem })
  @RequireScope('read')
  scenarios(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = pageQuerySchema.parse(defined({ limit: first, cursor: after }));
    return this.scenarioService.list(auth.tenantId, page.limit, page.cursor);
  }

  @Query(() => ScenarioView)
  @RequireScope('read')
  scenario(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Scenario')) id: string,
  ) {
    return this.scenarioService.get(auth.tenantId, id);
  }

  @Query(() => RunPageView, { complexity: perItem })
  @RequireScope('read')
  simulations(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = pageQuerySchema.parse(defined({ limit: first, cursor: after }));
    return this.runs.list(auth.tenantId, page.limit, page.cursor);
  }

  @Query(() => RunView)
  @RequireScope('read')
  simulation(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Simulation run')) id: string,
  ) {
    return this.runs.get(auth.tenantId, id);
  }

  @Query(() => [ApiKeyView])
  @RequireScope('admin')
  apiKeys(@CurrentTenant() auth: TenantAuth) {
    return this.keys.list(auth.tenantId);
  }

  @Mutation(() => SnapshotImportView, {
    description: 'content: a kubectl List (JSON) or multi-document YAML',
  })
  @RequireScope('write')
  importSnapshot(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('content') content: string,
    @Args('labels', { type: () => JsonScalar, nullable: true }) labels?: Record<string, string>,
  ) {
    snapshotImportQuerySchema.parse({ name });
    return this.snapshotService.import(
      auth.tenantId,
      { name, labels: labelsSchema.parse(labels ?? {}) },
      content,
    );
  }

  @Mutation(() => Boolean)
  @RequireScope('write')
  async deleteSnapshot(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Snapshot')) id: string,
    @Args('hard', { nullable: true }) hard?: boolean,
  ) {
    await this.snapshotService.delete(auth.tenantId, id, hard === true);
    return true;
  }

  @Mutation(() => ProfileView, { description: 'config: a KubeSchedulerConfiguration as YAML or JSON text' })
  @RequireScope('write')
  uploadProfile(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('config') config: string,
    @Args('description', { nullable: true }) description?: string,
  ) {
    const query = profileUploadQuerySchema.parse(defined({ name, description }));
    return this.profileService.upload(
      auth.tenantId,
      query.name,
      query.description,
      parseBodyText(config, 'yaml'),
    );
  }

  @Mutation(() => ScenarioView)
  @RequireScope('write')
  createScenario(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('document', { type: () => JsonScalar }) document: unknown,
    @Args('snapshotId', { type: () => ID, nullable: true }) snapshotId?: string,
  ) {
    return this.scenarioService.create(
      auth.tenantId,
      createScenarioSchema.parse(defined({ name, document, snapshotId })),
    );
  }

  @Mutation(() => RunView)
  @RequireScope('write')
  submitSimulation(@CurrentTenant() auth: TenantAuth, @Args('input') input: SubmitSimulationInput) {
    return this.runs.submit(auth.tenantId, submitRunSchema.parse(defined({ ...input })));
  }

  @Mutation(() => RunView)
  @RequireScope('write')
  cancelSimulation(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Simulation run')) id: string,
  ) {
    return this.runs.cancel(auth.tenantId, id);
  }

  @Mutation(() => CreatedApiKeyView)
  @RequireScope('admin')
  createApiKey(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('scopes', { type: () => [String], nullable: true }) scopes?: string[],
  ) {
    return this.keys.create(auth.tenantId, createApiKeySchema.parse(defined({ name, scopes })));
  }

  @Mutation(() => ApiKeyView)
  @RequireScope('admin')
  revokeApiKey(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('API key')) id: string,
  ) {
    return this.keys.revoke(auth.tenantId, id);
  }

  @Subscription(() => RunProgressView, {
    description: "The run's progress now, then as workers report it, until it finishes.",
    resolve: (progress: RunProgressView) => progress,
  })
  @RequireScope('read')
  simulationProgress(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Simulation run')) id: string,
  ): AsyncIterable<RunProgressView> {
    const runs = this.runs;
    const relay = this.progress;
    return (async function* () {
      const stop = new AbortController();
      try {
        const updates = (await relay.listen(id, stop.signal))[Symbol.asyncIterator]();
        const run = await runs.get(auth.tenantId, id); // 404 for another tenant's run
        yield {
          runId: run.id,
          status: run.status,
          phase: run.phase,
          percent: run.percent,
          podsProcessed: run.podsProcessed,
          podsTotal: run.podsTotal,
        };
        if (FINAL_RUN_STATUSES.has(run.status)) return;
        for (let next = await updates.next(); !next.done; next = await updates.next()) {
          const p = next.value;
          yield {
            runId: p.runId,
            status: p.status as RunStatus,
            phase: p.phase ?? null,
            percent: p.percent,
            podsProcessed: p.podsProcessed,
            podsTotal: p.podsTotal ?? null,
          };
          if (FINAL_RUN_STATUSES.has(p.status as RunStatus)) return;
        }
      } finally {
        stop.abort();
      }
    })();
  }
}

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

  @ResolveField(() => PlacementPage, { complexity: perItem })
  placements(
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
    return this.runs.placements(auth.tenantId, run.id, query);
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
