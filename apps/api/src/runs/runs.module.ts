import { Module } from '@nestjs/common';
import { QueuesModule } from '@schedlab/queues';
import { ProfilesModule } from '../profiles/profiles.module';
import { ScenariosModule } from '../scenarios/scenarios.module';
import { SnapshotsModule } from '../snapshots/snapshots.module';
import { ExplanationReplays } from './explanation-replays';
import { RunFieldsResolver } from './run-fields.resolver';
import { RunProgressRelay } from './run-progress.relay';
import { RunsController } from './runs.controller';
import { RunsResolver } from './runs.resolver';
import { RunsService } from './runs.service';

/**
 * Runs: REST /v1/simulations (submit, list, get, cancel, result, placements, unschedulable,
 * explanations) and GraphQL simulations, simulation, submitSimulation, cancelSimulation,
 * simulationProgress, with a run's nested fields.
 */
@Module({
  imports: [QueuesModule, SnapshotsModule, ScenariosModule, ProfilesModule],
  controllers: [RunsController],
  providers: [RunsService, ExplanationReplays, RunProgressRelay, RunsResolver, RunFieldsResolver],
  exports: [RunsService],
})
export class RunsModule {}
