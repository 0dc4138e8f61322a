import { Module } from '@nestjs/common';
import { ProfilesController } from './profiles.controller';
import { ProfilesResolver } from './profiles.resolver';
import { ProfilesService } from './profiles.service';

/** Scheduler profiles: REST /v1/profiles and GraphQL profiles, profile, uploadProfile. */
@Module({
  controllers: [ProfilesController],
  providers: [ProfilesService, ProfilesResolver],
  exports: [ProfilesService],
})
export class ProfilesModule {}
