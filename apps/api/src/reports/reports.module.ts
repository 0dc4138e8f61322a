import { Module } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module';
import { ReportsController } from './reports.controller';
import { ReportsResolver } from './reports.resolver';
import { ReportsService } from './reports.service';

/** Run reports: GET /v1/runs/{id}/report, signed links (GraphQL reportUrl) and GET /v1/reports/{runId}. */
@Module({
  // RunsModule's ExplanationReplays recomputes a scenario run's report on an engine thread.
  imports: [RunsModule],
  controllers: [ReportsController],
  providers: [ReportsService, ReportsResolver],
})
export class ReportsModule {}
