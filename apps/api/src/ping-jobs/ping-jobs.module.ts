import { Module } from '@nestjs/common';
import { JobsModule } from '@schedlab/jobs';
import { PingJobEventsListener, PingJobFinishedEvents } from './ping-job-events';
import { PingJobsController } from './ping-jobs.controller';
import { PingJobsResolver } from './ping-jobs.resolver';
import { PingJobsService } from './ping-jobs.service';

@Module({
  imports: [JobsModule],
  controllers: [PingJobsController],
  providers: [PingJobsService, PingJobsResolver, PingJobEventsListener, PingJobFinishedEvents],
})
export class PingJobsModule {}
