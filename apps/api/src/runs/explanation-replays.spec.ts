import type { AppConfig } from '@schedlab/config';
import { type EngineJob, syntheticSnapshotContent } from '@schedlab/runs';
import { ExplanationReplays } from './explanation-replays';

const config = (concurrency: number, timeoutMs: number) =>
  ({ nodeEnv: 'test', explainReplay: { concurrency, timeoutMs } }) as AppConfig;

const job: EngineJob = {
  runId: 'r',
  type: 'simulate',
  content: new Uint8Array(syntheticSnapshotContent({ nodes: 10, pods: 30 })),
  seed: 0,
  options: {},
};

/** A load that holds its replay slot until released. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, load: () => opened.then(() => job) };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );

/** ExplanationReplays on real engine threads: slots, queue, time limit, sharing and cache. */
describe('ExplanationReplays', () => {
  it('runs one replay per slot, queues 4 per slot, refuses more at once, and times out from arrival', async () => {
    const replays = new ExplanationReplays(config(1, 700));
    const held = gate();
    const admitted = ['a', 'b', 'c', 'd', 'e'].map((key) =>
      codeOf(replays.replay(key, 'default/pod-1', held.load)),
    );
    const refused = await Promise.all(
      ['f', 'g'].map((key) => codeOf(replays.replay(key, 'default/pod-1', held.load))),
    );
    expect(refused).toEqual(['replay_busy', 'replay_busy']);
    // The first holds the slot (its load never finishes), so all five run out of time.
    expect(await Promise.all(admitted)).toEqual(Array(5).fill('replay_timeout'));
    held.open();
  });

  it('shares one replay among concurrent requests for the same pod and caches it', async () => {
    const replays = new ExplanationReplays(config(2, 60_000));
    let loads = 0;
    const load = async () => {
      loads++;
      return job;
    };
    const [a, b] = await Promise.all([
      replays.replay('run/default/pod-29', 'default/pod-29', load),
      replays.replay('run/default/pod-29', 'default/pod-29', load),
    ]);
    expect(a).toBe(b);
    expect(a.result).toMatchObject({ pod: 'default/pod-29' });
    expect(a.nodes).toHaveLength(10);
    expect(await replays.replay('run/default/pod-29', 'default/pod-29', load)).toBe(a);
    expect(loads).toBe(1);
    await expect(replays.replay('run/default/nope', 'default/nope', load)).rejects.toMatchObject({
      status: 404,
    });
  }, 60_000);
});
