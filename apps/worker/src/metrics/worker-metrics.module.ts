import { getQueueToken } from '@nestjs/bullmq';
import {
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { QueueName } from '@schedlab/queues';
import {
  InjectMetricsRegistry,
  MetricsModule,
  QUEUE_STATES,
  type MetricsServer,
  WorkerMetrics,
  startMetricsServer,
} from '@schedlab/metrics';
import type { Registry } from 'prom-client';

/**
 * The worker's Prometheus endpoint: a small HTTP listener on SCHEDLAB_WORKER_METRICS_PORT serving the
 * worker registry. Queue depth of every Schedlab queue is read from Redis at scrape time; the
 * processors record jobs, engine runs and webhook deliveries through the injectable WorkerMetrics.
 */
@Module({ imports: [MetricsModule.forService('worker')] })
export class WorkerMetricsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('metrics');
  private server?: MetricsServer;

  constructor(
    @InjectAppConfig() private readonly config: AppConfig,
    @InjectMetricsRegistry() private readonly registry: Registry,
    @Inject(WorkerMetrics) private readonly metrics: WorkerMetrics,
    private readonly moduleRef: ModuleRef,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const name of Object.values(QueueName)) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      this.metrics.watchQueue({ queue: name, counts: () => queue.getJobCounts(...QUEUE_STATES) });
    }
    try {
      this.server = await startMetricsServer(
        this.registry,
        this.config.worker.metricsPort,
        this.config.api.host,
      );
    } catch (error) {
      throw new Error(
        `SCHEDLAB_WORKER_METRICS_PORT: cannot listen on ${this.config.api.host}:${this.config.worker.metricsPort} (${(error as Error).message})`,
      );
    }
    this.logger.log({
      msg: 'worker metrics listening',
      url: `http://${this.config.api.host}:${this.server.port}/metrics`,
    });
  }

  /** The bound port (WORKER_METRICS_PORT=0 picks one). */
  get port(): number | undefined {
    return this.server?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}
