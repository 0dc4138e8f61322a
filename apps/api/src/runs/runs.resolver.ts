import { Args, ID, InputType, Int, Field, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import type { RunType } from '@schedlab/analysis';
import type { RunStatus } from '@schedlab/db';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { defined } from '../common/graphql-args';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { JsonScalar } from '../common/json.scalar';
import { createdAtCursorOf, pageQuerySchema } from '../common/pagination';
import { toConnection } from '../graphql/connection';
import { perItem, RunConnection } from '../graphql/pages';
import { submitRunSchema } from './run-input';
import { FINAL_RUN_STATUSES, RunProgressView, RunTypeEnum, RunView } from './run.model';
import { RunProgressRelay } from './run-progress.relay';
import { RunsService } from './runs.service';

@InputType('SubmitRunInput')
class SubmitRunInput {
  @Field(() => RunTypeEnum) type!: RunType;
  @Field(() => ID) snapshotId!: string;
  @Field(() => ID, { nullable: true }) scenarioId?: string;
  @Field(() => String, { nullable: true }) profile?: string;
  @Field(() => Int, { nullable: true }) seed?: number;
  @Field(() => JsonScalar, { nullable: true }) options?: Record<string, unknown>;
}

/** The input's old name, kept so operations declaring `$input: SubmitSimulationInput!` still validate. */
@InputType('SubmitSimulationInput')
class SubmitSimulationInput extends SubmitRunInput {}

const runIdPipe = () => new ResourceIdPipe('Run');
/** The old "simulation" spellings of the run fields: served, marked deprecated (docs/api.md). */
const renamed = (field: string) => `Renamed to ${field}: one word for a run across REST, GraphQL and code`;

@Resolver(() => RunView)
export class RunsResolver {
  constructor(
    private readonly runsService: RunsService,
    private readonly progress: RunProgressRelay,
  ) {}

  @Query(() => RunConnection, { complexity: perItem })
  @RequireScope('read')
  async runs(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = pageQuerySchema.parse(defined({ limit: first, cursor: after }));
    return toConnection(
      await this.runsService.list(auth.tenantId, page.limit, page.cursor),
      createdAtCursorOf,
    );
  }

  @Query(() => RunConnection, { complexity: perItem, deprecationReason: renamed('runs') })
  @RequireScope('read')
  simulations(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    return this.runs(auth, first, after);
  }

  @Query(() => RunView)
  @RequireScope('read')
  run(@CurrentTenant() auth: TenantAuth, @Args('id', { type: () => ID }, runIdPipe()) id: string) {
    return this.runsService.get(auth.tenantId, id);
  }

  @Query(() => RunView, { deprecationReason: renamed('run') })
  @RequireScope('read')
  simulation(@CurrentTenant() auth: TenantAuth, @Args('id', { type: () => ID }, runIdPipe()) id: string) {
    return this.run(auth, id);
  }

  @Mutation(() => RunView)
  @RequireScope('write')
  submitRun(@CurrentTenant() auth: TenantAuth, @Args('input') input: SubmitRunInput) {
    return this.runsService.submit(auth.tenantId, submitRunSchema.parse(defined({ ...input })));
  }

  @Mutation(() => RunView, { deprecationReason: renamed('submitRun') })
  @RequireScope('write')
  submitSimulation(@CurrentTenant() auth: TenantAuth, @Args('input') input: SubmitSimulationInput) {
    return this.submitRun(auth, input);
  }

  @Mutation(() => RunView)
  @RequireScope('write')
  cancelRun(@CurrentTenant() auth: TenantAuth, @Args('id', { type: () => ID }, runIdPipe()) id: string) {
    return this.runsService.cancel(auth.tenantId, id);
  }

  @Mutation(() => RunView, { deprecationReason: renamed('cancelRun') })
  @RequireScope('write')
  cancelSimulation(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, runIdPipe()) id: string,
  ) {
    return this.cancelRun(auth, id);
  }

  @Subscription(() => RunProgressView, {
    description: "The run's progress now, then as workers report it, until it finishes.",
    resolve: (progress: RunProgressView) => progress,
  })
  @RequireScope('read')
  runProgress(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, runIdPipe()) id: string,
  ): AsyncIterable<RunProgressView> {
    return this.progressOf(auth, id);
  }

  @Subscription(() => RunProgressView, {
    deprecationReason: renamed('runProgress'),
    resolve: (progress: RunProgressView) => progress,
  })
  @RequireScope('read')
  simulationProgress(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, runIdPipe()) id: string,
  ): AsyncIterable<RunProgressView> {
    return this.progressOf(auth, id);
  }

  private progressOf(auth: TenantAuth, id: string): AsyncIterable<RunProgressView> {
    const runs = this.runsService;
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
