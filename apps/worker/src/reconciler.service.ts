import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { PrismaService } from '@schedlab/db';
import { enqueueSweepAggregation, QueueName } from '@schedlab/queues';
import { RunReconciler } from '@schedlab/runs';

/** Re-enqueues runs PostgreSQL says are open but Redis has no live job for: at start, then every RECONCILE_INTERVAL_MS. */
@Injectable()
export class ReconcilerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReconcilerService.name);
  private readonly reconciler: RunReconciler;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> = Promise.resolve();

  constructor(
    prisma: PrismaService,
    @InjectAppConfig() private readonly config: AppConfig,
    // Producers from QueuesModule (Nest closes them on shutdown, after this service's hook).
    @InjectQueue(QueueName.Runs) private readonly simulations: Queue,
    @InjectQueue(QueueName.Sweeps) private readonly sweeps: Queue,
  ) {
    for (const queue of [this.simulations, this.sweeps])
      queue.on('error', (e) => this.logger.warn(`${queue.name} queue: ${e.message}`));
    this.reconciler = new RunReconciler(prisma, this.simulations, (id) =>
      enqueueSweepAggregation(this.sweeps, id),
    );
  }

  onApplicationBootstrap(): void {
    this.runPass();
    this.timer = setInterval(() => this.runPass(), this.config.worker.reconcileIntervalMs);
  }

  private runPass(): void {
    this.pass = this.pass
      .then(() => this.reconciler.reconcile())
      .then((report) => {
        if (report.requeued.length > 0)
          this.logger.log({ msg: 'reconciler re-enqueued runs', runs: report.requeued });
      })
      .catch((error: Error) => this.logger.warn(`reconciler pass failed: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.pass;
  }
}
