import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, AppConfigModule } from '@schedlab/config';
import { DbModule } from '@schedlab/db';
import { JobsModule } from '@schedlab/jobs';
import { LoggingModule } from '@schedlab/logging';
import { WorkerMetricsModule } from './metrics/worker-metrics.module';
import { PingProcessor } from './ping.processor';

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [AppConfigModule.forRoot(config), LoggingModule, DbModule, JobsModule, WorkerMetricsModule],
      providers: [PingProcessor],
    };
  }
}
