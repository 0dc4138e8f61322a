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

@InputType()
class SubmitSimulationInput {
  @Field(() => RunTypeEnum) type!: RunType;
  @Field(() => ID) snapshotId!: string;
  @Field(() => ID, { nullable: true }) scenarioId?: string;
  @Field(() => String, { nullable: true }) profile?: string;
  @Field(() => Int, { nullable: true }) seed?: number;
  @Field(() => JsonScalar, { nullable: true }) options?: Record<string, unknown>;
}

@Resolver(() => RunView)
export class RunsResolver {
  constructor(
    private readonly runs: RunsService,
    private readonly progress: RunProgressRelay,
  ) {}

  @Query(() => RunConnection, { complexity: perItem })
  @RequireScope('read')
  async simulations(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = pageQuerySchema.parse(defined({ limit: first, cursor: after }));
    return toConnection(await this.runs.list(auth.tenantId, page.limit, page.cursor), createdAtCursorOf);
  }

  @Query(() => RunView)
  @RequireScope('read')
  simulation(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Simulation run')) id: string,
  ) {
    return this.runs.get(auth.tenantId, id);
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
