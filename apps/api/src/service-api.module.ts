import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { JobsModule } from '@schedlab/jobs';
import { AdminController } from './admin/admin.controller';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthModule } from './auth/auth.module';
import { ApiErrorFilter } from './common/api-error.filter';
import { ApiRedisModule } from './common/redis';
import { TenantDataModule } from './common/tenant-data';
import { ProfilesController } from './profiles/profiles.controller';
import { ProfilesService } from './profiles/profiles.service';
import { RunsController } from './runs/runs.controller';
import { ExplanationReplays } from './runs/explanation-replays';
import { RunsService } from './runs/runs.service';
import { RunProgressRelay } from './runs/run-progress.relay';
import { RunFieldsResolver, ServiceQueriesResolver } from './graphql/service.resolver';
import { ScenariosController } from './scenarios/scenarios.controller';
import { ScenariosService } from './scenarios/scenarios.service';
import { SnapshotsController } from './snapshots/snapshots.controller';
import { SnapshotsService } from './snapshots/snapshots.service';

/** The tenant-facing /v1 API (REST; GraphQL resolvers share these services). */
@Module({
  imports: [JobsModule, ApiRedisModule, TenantDataModule, AuthModule],
  controllers: [
    SnapshotsController,
    ProfilesController,
    ScenariosController,
    RunsController,
    ApiKeysController,
    AdminController,
  ],
  providers: [
    SnapshotsService,
    ProfilesService,
    ScenariosService,
    RunsService,
    ExplanationReplays,
    ApiKeysService,
    RunProgressRelay,
    ServiceQueriesResolver,
    RunFieldsResolver,
    { provide: APP_FILTER, useClass: ApiErrorFilter },
  ],
  exports: [SnapshotsService, ProfilesService, ScenariosService, RunsService, ApiKeysService],
})
export class ServiceApiModule {}
