import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { ScenariosModule } from '../scenarios/scenarios.module';
import { SnapshotsModule } from '../snapshots/snapshots.module';
import { SweepsController } from './sweeps.controller';
import { SweepsResolver } from './sweeps.resolver';
import { SweepsService } from './sweeps.service';

/** Sweeps: REST /v1/sweeps and GraphQL; a parent run and its children, enqueued as one flow. */
@Module({
  imports: [SnapshotsModule, ScenariosModule, ProfilesModule],
  controllers: [SweepsController],
  providers: [SweepsService, SweepsResolver],
})
export class SweepsModule {}
