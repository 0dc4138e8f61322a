import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, AppConfigModule } from '@schedlab/config';
import { DbModule } from '@schedlab/db';
import { QueuesModule } from '@schedlab/queues';
import { LoggingModule } from '@schedlab/logging';
import { WorkerMetricsModule } from './metrics/worker-metrics.module';
import { ReconcilerService } from './reconciler.service';
import { RunsWorker } from './runs.worker';
import { SweepsWorker } from './sweeps.worker';
import { WebhookDispatcherService } from './webhook-dispatcher.service';

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [AppConfigModule.forRoot(config), LoggingModule, DbModule, QueuesModule, WorkerMetricsModule],
      providers: [RunsWorker, SweepsWorker, ReconcilerService, WebhookDispatcherService],
    };
  }
}
