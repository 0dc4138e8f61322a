import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Job, Worker, type WorkerOptions } from 'bullmq';
import type { AppConfig } from '@schedlab/config';
import { ignoreErrorsAfterClose, type QueueName } from '@schedlab/queues';
import { bullmqConnection } from './bullmq-options';

/**
 * The worker's one pattern for consuming a queue: a Nest provider that starts a BullMQ Worker on
 * `queue` when the application has bootstrapped and closes it (force) on shutdown. Subclasses
 * name the queue and its worker options, and implement `process` for one job; the job contracts
 * (names, data schemas) are in @schedlab/queues.
 */
export abstract class QueueWorker<Data = unknown, Result = unknown>
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  protected readonly logger: Logger;
  private worker: Worker<Data, Result> | undefined;

  protected constructor(
    protected readonly queue: QueueName,
    protected readonly config: AppConfig,
  ) {
    this.logger = new Logger(this.constructor.name);
  }

  /** Concurrency, lock duration and the like; the connection and prefix are added here. */
  protected abstract workerOptions(): Omit<WorkerOptions, 'connection' | 'prefix'>;

  protected abstract process(job: Job<Data, Result>, token: string | undefined): Promise<Result>;

  onApplicationBootstrap(): void {
    this.worker = new Worker<Data, Result>(this.queue, (job, token) => this.process(job, token), {
      ...bullmqConnection(this.config),
      ...this.workerOptions(),
    });
    this.worker.on('error', (error) => this.logger.warn(`${this.queue} worker: ${error.message}`));
    ignoreErrorsAfterClose(this.worker);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close(true);
  }
}
