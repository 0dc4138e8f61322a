import { Queue } from 'bullmq';
import { testConfig } from '@schedlab/testing';
import { redisOptionsFromUrl } from './redis-connection';
import { QueueName } from './queues';
import { enqueueRun, SIMULATE_JOB, SIMULATIONS_QUEUE, simulationJobDataSchema } from './simulations';

describe('simulation job contract (real Redis)', () => {
  const config = testConfig();
  const queue = new Queue(SIMULATIONS_QUEUE, {
    connection: redisOptionsFromUrl(config.redisUrl),
    prefix: config.queuePrefix,
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('is registered under the name the worker consumes', () => {
    expect(QueueName.Simulations).toBe(SIMULATIONS_QUEUE);
  });

  it('enqueues a run under its own id, once however often it is enqueued', async () => {
    const runId = '0b7c6a3e-9a53-4c39-8d1d-0f4c2b1f6a11';
    await enqueueRun(queue, runId);
    await enqueueRun(queue, runId);
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.map((j) => [j.id, j.name, j.data])).toEqual([[runId, SIMULATE_JOB, { runId }]]);
  });

  it('refuses data that is not exactly a run id', async () => {
    expect(simulationJobDataSchema.safeParse({ runId: 'x' }).success).toBe(false);
    expect(
      simulationJobDataSchema.safeParse({ runId: '0b7c6a3e-9a53-4c39-8d1d-0f4c2b1f6a11', extra: 1 }).success,
    ).toBe(false);
    await expect(enqueueRun(queue, 'not-a-uuid')).rejects.toThrow();
  });
});
