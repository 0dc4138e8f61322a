/**
 * What the worker reports: queue depth by state, job durations by outcome, engine throughput and
 * webhook delivery outcomes. The worker's code calls the record* methods; queue depth is read
 * from BullMQ when Prometheus scrapes (a `QueueDepthSource` the worker registers).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** BullMQ job states reported as queue depth. */
export const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'completed',
  'failed',
  'paused',
  'prioritized',
  'waiting-children',
] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** Counts per state of one queue, e.g. BullMQ's `queue.getJobCounts(...QUEUE_STATES)`. */
export interface QueueDepthSource {
  queue: string;
  counts(): Promise<Partial<Record<QueueState, number>>>;
}

export type JobOutcome = 'succeeded' | 'failed' | 'timed_out' | 'cancelled';
export type WebhookOutcome = 'delivered' | 'failed' | 'retrying' | 'abandoned' | 'blocked';

/** Seconds; simulations range from milliseconds to the run timeout. */
export const JOB_DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

export class WorkerMetrics {
  private readonly depthSources: QueueDepthSource[] = [];
  readonly queueDepth: Gauge<'queue' | 'state'>;
  readonly jobDuration: Histogram<'queue' | 'outcome'>;
  readonly enginePods: Counter<'queue'>;
  readonly engineSeconds: Counter<'queue'>;
  readonly enginePodsPerSecond: Gauge<'queue'>;
  readonly webhookDeliveries: Counter<'outcome'>;

  constructor(registry: Registry) {
    const sources = this.depthSources;
    this.queueDepth = new Gauge({
      name: 'schedlab_queue_jobs',
      help: 'Jobs in each BullMQ queue by state, read from Redis at scrape time',
      labelNames: ['queue', 'state'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const source of sources) {
          const counts = await source.counts();
          for (const state of QUEUE_STATES) this.set({ queue: source.queue, state }, counts[state] ?? 0);
        }
      },
    });
    this.jobDuration = new Histogram({
      name: 'schedlab_job_duration_seconds',
      help: 'Time a worker spent on a job, by queue and outcome',
      labelNames: ['queue', 'outcome'],
      buckets: JOB_DURATION_BUCKETS,
      registers: [registry],
    });
    this.enginePods = new Counter({
      name: 'schedlab_engine_pods_scheduled_total',
      help: 'Pods the scheduling engine processed (scheduled or not); rate() over engine seconds gives pods/s',
      labelNames: ['queue'],
      registers: [registry],
    });
    this.engineSeconds = new Counter({
      name: 'schedlab_engine_seconds_total',
      help: 'Seconds spent inside the scheduling engine',
      labelNames: ['queue'],
      registers: [registry],
    });
    this.enginePodsPerSecond = new Gauge({
      name: 'schedlab_engine_pods_per_second',
      help: 'Engine throughput of the most recent job (pods processed / engine seconds)',
      labelNames: ['queue'],
      registers: [registry],
    });
    this.webhookDeliveries = new Counter({
      name: 'schedlab_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    });
  }

  /** Reports the depth of `source.queue` on every scrape. */
  watchQueue(source: QueueDepthSource): void {
    this.depthSources.push(source);
  }

  recordJob(queue: string, outcome: JobOutcome, seconds: number): void {
    this.jobDuration.observe({ queue, outcome }, seconds);
  }

  recordEngineRun(queue: string, pods: number, seconds: number): void {
    this.enginePods.inc({ queue }, pods);
    this.engineSeconds.inc({ queue }, seconds);
    if (seconds > 0) this.enginePodsPerSecond.set({ queue }, pods / seconds);
  }

  recordWebhookDelivery(outcome: WebhookOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }
}
