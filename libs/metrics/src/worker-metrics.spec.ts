import { createMetricsRegistry } from './registry';
import { WorkerMetrics } from './worker-metrics';
import { startMetricsServer } from './metrics-server';
import { sampleValue } from './exposition';

describe('WorkerMetrics', () => {
  it('reads queue depth at scrape time and exposes job, engine and webhook series on /metrics', async () => {
    const registry = createMetricsRegistry('worker');
    const metrics = new WorkerMetrics(registry);
    let waiting = 3;
    metrics.watchQueue({ queue: 'simulations', counts: async () => ({ waiting, active: 1 }) });
    metrics.recordJob('simulations', 'succeeded', 0.3);
    metrics.recordJob('simulations', 'failed', 42);
    metrics.recordEngineRun('simulations', 500, 0.25);
    metrics.recordWebhookDelivery('delivered');
    metrics.recordWebhookDelivery('retrying');

    const server = await startMetricsServer(registry, 0, '127.0.0.1');
    try {
      const scrape = async () => (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
      const text = await scrape();
      const q = { queue: 'simulations', service: 'worker' };
      expect(sampleValue(text, 'schedlab_queue_jobs', { ...q, state: 'waiting' })).toBe(3);
      expect(sampleValue(text, 'schedlab_queue_jobs', { ...q, state: 'delayed' })).toBe(0);
      expect(sampleValue(text, 'schedlab_job_duration_seconds_count', { ...q, outcome: 'failed' })).toBe(1);
      expect(
        sampleValue(text, 'schedlab_job_duration_seconds_bucket', { ...q, outcome: 'succeeded', le: '0.5' }),
      ).toBe(1);
      expect(
        sampleValue(text, 'schedlab_job_duration_seconds_bucket', { ...q, outcome: 'failed', le: '30' }),
      ).toBe(0);
      expect(sampleValue(text, 'schedlab_engine_pods_per_second', q)).toBe(2000);
      expect(sampleValue(text, 'schedlab_engine_pods_scheduled_total', q)).toBe(500);
      expect(
        sampleValue(text, 'schedlab_webhook_deliveries_total', { outcome: 'retrying', service: 'worker' }),
      ).toBe(1);
      waiting = 0;
      expect(sampleValue(await scrape(), 'schedlab_queue_jobs', { ...q, state: 'waiting' })).toBe(0);
      const notFound = await fetch(`http://127.0.0.1:${server.port}/other`);
      expect(notFound.status).toBe(404);
      expect(((await notFound.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    } finally {
      await server.close();
    }
  });
});
