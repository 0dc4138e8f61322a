import { gzipSync } from 'node:zlib';
import type { EngineProgress } from './engine-job';
import { syntheticSnapshotContent } from './synthetic-cluster';
import { once } from 'node:events';
import {
  ENGINE_THREAD_RESOURCE_LIMITS,
  EngineAbortedError,
  EngineError,
  runEngineInThread,
  startEngineThread,
} from './thread-runner';

const job = (content: Uint8Array, extra: object = {}) => ({
  runId: 'r',
  type: 'simulate' as const,
  content,
  seed: 1,
  options: { explain: 'summary' },
  ...extra,
});

describe('engine on a worker thread', () => {
  it('schedules a generated cluster and reports progress up to every pod', async () => {
    const progress: EngineProgress[] = [];
    const output = await runEngineInThread(job(syntheticSnapshotContent({ nodes: 6, pods: 40 })), {
      onProgress: (p) => progress.push(p),
    });
    expect(output.summary).toMatchObject({ pods: 40, scheduled: 40, unschedulable: 0 });
    expect(output.placements).toHaveLength(40);
    expect(new Set(output.placements.map((p) => p.zone))).toEqual(new Set(['zone-0', 'zone-1', 'zone-2']));
    expect(progress[0]?.phase).toBe('loading');
    expect(progress.at(-1)).toEqual({ phase: 'scheduling', podsProcessed: 40, podsTotal: 40 });
  });

  it('marks bad input as deterministic', async () => {
    const bad = gzipSync(JSON.stringify({ items: [] }));
    await expect(
      runEngineInThread(
        job(bad, {
          schedulerConfiguration: {
            apiVersion: 'kubescheduler.config.k8s.io/v1',
            kind: 'KubeSchedulerConfiguration',
            profiles: [{ plugins: { score: { enabled: [{ name: 'NoSuchPlugin' }] } } }],
          },
        }),
      ),
    ).rejects.toMatchObject({ deterministic: true });
    await expect(runEngineInThread(job(bad, { type: 'capacity' }))).rejects.toThrow(EngineError);
    await expect(runEngineInThread(job(bad, { type: 'capacity' }))).rejects.toThrow(
      /options.podTemplate: required/,
    );
  });

  it('terminates the thread when aborted mid-run', async () => {
    const stop = new AbortController();
    const running = runEngineInThread(job(syntheticSnapshotContent({ nodes: 200, pods: 20_000 })), {
      onProgress: (p) => p.podsProcessed > 0 && stop.abort(new Error('cancelled by test')),
      signal: stop.signal,
    });
    await expect(running).rejects.toBeInstanceOf(EngineAbortedError);
    await expect(running).rejects.toThrow('cancelled by test');
  });

  it("runs with V8's young generation held to its limit", async () => {
    const thread = startEngineThread();
    try {
      await once(thread, 'online');
      expect(thread.resourceLimits?.maxYoungGenerationSizeMb).toBe(
        ENGINE_THREAD_RESOURCE_LIMITS.maxYoungGenerationSizeMb,
      );
    } finally {
      await thread.terminate();
    }
  });
});
