import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QueueName } from '@schedlab/queues';
import { WorkerMetrics, sampleValue } from '@schedlab/metrics';
import { createTestDatabase, testConfig, type TestDatabase } from '@schedlab/testing';
import { createWorkerApp } from '../app';
import { WorkerMetricsModule } from './worker-metrics.module';

describe('worker /metrics (real Redis)', () => {
  let db: TestDatabase;
  let app: INestApplicationContext;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    app = await createWorkerApp(testConfig({ DATABASE_URL: db.url }));
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('serves queue depth read from Redis and what the processors record', async () => {
    // A delayed job stays put: no processor picks it up during the test.
    const queue = app.get<Queue>(getQueueToken(QueueName.Sweeps), { strict: false });
    await queue.add('probe', { runId: '00000000-0000-4000-8000-000000000000' }, { delay: 3_600_000 });
    app.get(WorkerMetrics).recordJob(QueueName.Sweeps, 'succeeded', 0.2);

    const port = app.get(WorkerMetricsModule).port;
    expect(port).toBeGreaterThan(0);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(
      sampleValue(text, 'schedlab_queue_jobs', {
        queue: QueueName.Sweeps,
        state: 'delayed',
        service: 'worker',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'schedlab_queue_jobs', {
        queue: QueueName.Sweeps,
        state: 'active',
        service: 'worker',
      }),
    ).toBe(0);
    expect(
      sampleValue(text, 'schedlab_job_duration_seconds_count', {
        queue: QueueName.Sweeps,
        outcome: 'succeeded',
      }),
    ).toBe(1);
  });
});
