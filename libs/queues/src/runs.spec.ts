import { Queue } from 'bullmq';
import { testConfig } from '@schedlab/testing';
import { redisOptionsFromUrl } from './redis-connection';
import { QueueName } from './queues';
import { enqueueRun, RUN_JOB, RUNS_QUEUE, runJobDataSchema } from './runs';

describe('run job contract (real Redis)', () => {
  const config = testConfig();
  const queue = new Queue(RUNS_QUEUE, {
    connection: redisOptionsFromUrl(config.redisUrl),
    prefix: config.queuePrefix,
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('is registered under the name the worker consumes', () => {
    expect(QueueName.Runs).toBe(RUNS_QUEUE);
  });

  it('enqueues a run under its own id, once however often it is enqueued', async () => {
    const runId = '0b7c6a3e-9a53-4c39-8d1d-0f4c2b1f6a11';
    await enqueueRun(queue, runId);
    await enqueueRun(queue, runId);
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.map((j) => [j.id, j.name, j.data])).toEqual([[runId, RUN_JOB, { runId }]]);
  });

  it('refuses data that is not exactly a run id', async () => {
    expect(runJobDataSchema.safeParse({ runId: 'x' }).success).toBe(false);
    expect(
      runJobDataSchema.safeParse({ runId: '0b7c6a3e-9a53-4c39-8d1d-0f4c2b1f6a11', extra: 1 }).success,
    ).toBe(false);
    await expect(enqueueRun(queue, 'not-a-uuid')).rejects.toThrow();
  });
});
