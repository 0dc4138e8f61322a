import { Module } from '@nestjs/common';
import { QueuesModule } from '@schedlab/queues';
import { ProfilesModule } from '../profiles/profiles.module';
import { ScenariosModule } from '../scenarios/scenarios.module';
import { SnapshotsModule } from '../snapshots/snapshots.module';
import { ExplanationReplays } from './explanation-replays';
import { RunFieldsResolver } from './run-fields.resolver';
import { RunProgressRelay } from './run-progress.relay';
import { RunResultStorageResolver, RunStorageFieldsResolver } from './run-storage.resolver';
import { RunDeschedulingFieldsResolver, RunResultDeschedulingResolver } from './run-descheduling.resolver';
import { RunsController } from './runs.controller';
import { RunsResolver } from './runs.resolver';
import { RunsService } from './runs.service';

/**
 * Runs: REST /v1/runs (submit, list, get, cancel, result, storage, placements, unschedulable,
 * explanations) and GraphQL runs, run, submitRun, cancelRun, runProgress, with a run's nested
 * fields (the old "simulation" spellings are deprecated aliases: common/deprecated-routes.ts and
 * the resolver's deprecated fields).
 */
@Module({
  imports: [QueuesModule, SnapshotsModule, ScenariosModule, ProfilesModule],
  controllers: [RunsController],
  providers: [
    RunsService,
    ExplanationReplays,
    RunProgressRelay,
    RunsResolver,
    RunFieldsResolver,
    RunResultStorageResolver,
    RunStorageFieldsResolver,
    RunResultDeschedulingResolver,
    RunDeschedulingFieldsResolver,
  ],
  exports: [RunsService, ExplanationReplays],
})
export class RunsModule {}
