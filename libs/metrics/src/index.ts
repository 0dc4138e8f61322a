// Public API of @schedlab/metrics: Prometheus registries and the recorders api and worker increment.
export { createMetricsRegistry, type MetricsService } from './registry';
export { HttpMetrics, HTTP_DURATION_BUCKETS, UNMATCHED_ROUTE } from './http-metrics';
export {
  WorkerMetrics,
  QUEUE_STATES,
  JOB_DURATION_BUCKETS,
  type QueueState,
  type QueueDepthSource,
  type JobOutcome,
  type WebhookOutcome,
} from './worker-metrics';
export { startMetricsServer, type MetricsServer } from './metrics-server';
export { MetricsModule, METRICS_REGISTRY, InjectMetricsRegistry } from './metrics.module';
export { sampleValue } from './exposition';
