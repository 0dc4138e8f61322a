import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'bullmq';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { PrismaService } from '@schedlab/db';
import { simulationJobDataSchema } from '@schedlab/jobs';
import { aggregateSweep, SWEEPS_QUEUE } from '@schedlab/runs';
import { bullmqConnection } from './bullmq-options';

/** Runs a sweep's aggregation once its children are final (BullMQ flow parent). */
@Injectable()
export class SweepsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SweepsWorker.name);
  private worker: Worker | undefined;

  constructor(
    private readonly prisma: PrismaService,
    @InjectAppConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = new Worker(
      SWEEPS_QUEUE,
      async (job) => {
        const { runId } = simulationJobDataSchema.parse(job.data);
        const finished = await aggregateSweep(this.prisma, runId, this.config.publicApiUrl);
        this.logger.log({ msg: finished ? 'sweep aggregated' : 'sweep already final', sweepId: runId });
        return finished;
      },
      { ...bullmqConnection(this.config), concurrency: 2 },
    );
    this.worker.on('error', (error) => this.logger.warn(`sweeps worker: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close(true);
  }
}
