import { Module } from '@nestjs/common';
import { SnapshotsModule } from '../snapshots/snapshots.module';
import { ScenariosController } from './scenarios.controller';
import { ScenariosResolver } from './scenarios.resolver';
import { ScenariosService } from './scenarios.service';

/** What-if scenarios: REST /v1/scenarios and GraphQL scenarios, scenario, createScenario. */
@Module({
  imports: [SnapshotsModule],
  controllers: [ScenariosController],
  providers: [ScenariosService, ScenariosResolver],
  exports: [ScenariosService],
})
export class ScenariosModule {}
