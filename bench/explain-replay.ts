/**
 * Full explanation of one pod of a finished run, as the service computes it (a measurement, not a
 * test): the SchedulingBasic run (5,000 nodes, 1,000 running, 10,000 pending) executed once as the
 * worker executes it (libs/runs executeEngineJob: placements and compact explanations with their
 * replay cursors), then `replayPodExplanation` — what the api's engine thread runs for
 * `GET …/explanation?detail=full` — for random pods (seeded) and the run's last pod:
 *   - fast-forward: the recorded effects of the pods before applied, one full cycle run;
 *   - replay: every pod before it scheduled again (what runs without recorded cursors get), for a
 *     few pods only (it is the slow path).
 * Every fast-forwarded record is checked against the replayed one for the pods both ran.
 * The REST figure (database reads and the engine thread included) is bench/service-runs.ts's
 * `full (replay)` row (`npm run bench -- --service`).
 *
 *   node -r @swc-node/register bench/explain-replay.ts [--pods 50] [--replays 3] [--workload SchedulingBasic] [--json out.json]
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import type { EngineJob, PodReplay } from '@schedlab/runs';
import { executeEngineJob, replayPodExplanation } from '@schedlab/runs';
import type { RecordedAttempt, ReplayCursor } from '@schedlab/scheduler';
import { workloadByName } from './workloads';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (ms: number) => Math.round(ms);

export interface ExplainReplayResult {
  workload: string;
  pods: number;
  runMs: number;
  fastForward: { samples: number; p50Ms: number; p99Ms: number; maxMs: number; lastPodMs: number };
  replay: { samples: number; p50Ms: number; maxMs: number; lastPodMs: number };
  /** Pods whose fast-forward fell back to the full replay (should be 0). */
  fallbacks: number;
}

export function benchExplainReplay(workload: string, samples: number, replays: number): ExplainReplayResult {
  const items = workloadByName(workload).build(1);
  const job: EngineJob = {
    runId: 'bench',
    type: 'simulate',
    content: gzipSync(Buffer.from(JSON.stringify({ items }))),
    seed: 0,
    options: {},
  };
  let t = performance.now();
  const output = executeEngineJob(job, () => undefined);
  const runMs = performance.now() - t;
  const attempts: RecordedAttempt[] = output.placements.map((p) => ({
    pod: p.podKey,
    node: p.node,
    nominatedNode: p.nominatedNode,
    victims: p.victims,
  }));
  const cursors = new Map<string, ReplayCursor>(
    output.explanations.map((e) => [`${e.namespace}/${e.name}`, e.explanation.replayCursor as ReplayCursor]),
  );
  // Distinct pods (a fixed LCG), the last one first: each replay is computed, none cached.
  let state = 12;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) % attempts.length;
  const last = attempts.length - 1;
  const picked = new Set([last]);
  while (picked.size < Math.min(samples, attempts.length)) picked.add(next());
  const chosen = [...picked];
  const fast = new Map<number, { ms: number; replay: PodReplay }>();
  let fallbacks = 0;
  for (const at of chosen) {
    const pod = attempts[at].pod;
    t = performance.now();
    const replay = replayPodExplanation(
      { ...job, fastForward: { attempts: attempts.slice(0, at + 1), cursor: cursors.get(pod)! } },
      pod,
    );
    const ms = performance.now() - t;
    if (replay.method !== 'fast-forward') fallbacks++;
    fast.set(at, { ms, replay });
  }
  const slow: number[] = [];
  let lastPodReplayMs = NaN;
  for (const at of chosen.slice(0, replays)) {
    t = performance.now();
    const replay = replayPodExplanation(job, attempts[at].pod);
    const ms = performance.now() - t;
    if (at === last) lastPodReplayMs = ms;
    slow.push(ms);
    if (!isDeepStrictEqual(replay.result, fast.get(at)!.replay.result)) {
      throw new Error(`fast-forward and replay differ for ${attempts[at].pod}`);
    }
  }
  const fastMs = [...fast.values()].map((f) => f.ms).sort((a, b) => a - b);
  slow.sort((a, b) => a - b);
  return {
    workload,
    pods: attempts.length,
    runMs: round(runMs),
    fastForward: {
      samples: fastMs.length,
      p50Ms: round(percentile(fastMs, 50)),
      p99Ms: round(percentile(fastMs, 99)),
      maxMs: round(fastMs[fastMs.length - 1]),
      lastPodMs: round(fast.get(last)!.ms),
    },
    replay: {
      samples: slow.length,
      p50Ms: round(percentile(slow, 50)),
      maxMs: round(slow[slow.length - 1]),
      lastPodMs: round(lastPodReplayMs),
    },
    fallbacks,
  };
}

if (require.main === module) {
  const workload = flag('workload', 'SchedulingBasic');
  const result = benchExplainReplay(workload, Number(flag('pods', '50')), Number(flag('replays', '3')));
  const f = result.fastForward;
  console.log(
    `explain replay  ${workload} (${result.pods} pods): full explanation of one pod, in process ` +
      `(what the api's engine thread runs)\n` +
      `  fast-forward   ${f.samples} pods  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms  max ${f.maxMs} ms  last pod ${f.lastPodMs} ms  (fallbacks: ${result.fallbacks})\n` +
      `  full replay    ${result.replay.samples} pods  p50 ${result.replay.p50Ms} ms  max ${result.replay.maxMs} ms  last pod ${result.replay.lastPodMs} ms\n` +
      `  records equal for every pod both ran; the run itself took ${result.runMs} ms`,
  );
  const json = process.argv.indexOf('--json');
  if (json >= 0) writeFileSync(process.argv[json + 1], JSON.stringify(result, null, 2));
}
