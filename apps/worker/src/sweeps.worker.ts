import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { PrismaService } from '@schedlab/db';
import { QueueName, type RunJobData, runJobDataSchema } from '@schedlab/queues';
import { aggregateSweep } from '@schedlab/runs';
import { QueueWorker } from './queue-worker';

/** Runs a sweep's aggregation once its children are final (BullMQ flow parent). */
@Injectable()
export class SweepsWorker extends QueueWorker<RunJobData, boolean> {
  constructor(
    private readonly prisma: PrismaService,
    @InjectAppConfig() config: AppConfig,
  ) {
    super(QueueName.Sweeps, config);
  }

  protected workerOptions() {
    return { concurrency: 2 };
  }

  protected async process(job: Job<RunJobData, boolean>): Promise<boolean> {
    const { runId } = runJobDataSchema.parse(job.data);
    const finished = await aggregateSweep(this.prisma, runId, this.config.publicApiUrl);
    this.logger.log({ msg: finished ? 'sweep aggregated' : 'sweep already final', sweepId: runId });
    return finished;
  }
}
