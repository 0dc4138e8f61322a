import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, AppConfigModule } from '@schedlab/config';
import { DbModule } from '@schedlab/db';
import { JobsModule } from '@schedlab/jobs';
import { LoggingModule } from '@schedlab/logging';
import { WorkerMetricsModule } from './metrics/worker-metrics.module';
import { ReconcilerService } from './reconciler.service';
import { SimulationsWorker } from './simulations.worker';
import { SweepsWorker } from './sweeps.worker';
import { WebhookDispatcherService } from './webhook-dispatcher.service';

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [AppConfigModule.forRoot(config), LoggingModule, DbModule, JobsModule, WorkerMetricsModule],
      providers: [SimulationsWorker, SweepsWorker, ReconcilerService, WebhookDispatcherService],
    };
  }
}
