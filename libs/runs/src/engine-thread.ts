/**
 * Worker-thread entry: runs EngineJobs (and explanation replays, scenario reports) one at a time as they arrive,
 * posting progress (throttled), then the output or a failure. A job with `write` has its result
 * rows written to PostgreSQL from here (result-writer), so neither building nor writing them
 * touches the worker's event loop. A thread is reused for later jobs (loading the engine is the
 * expensive part of a small run); the parent terminates it to cancel or time out a run.
 */
import { parentPort } from 'node:worker_threads';
import type { EngineFailure, EngineJob, EngineProgress, ThreadRequest } from './engine-job';
import { executeEngineJob, replayPodExplanation } from './engine-task';
import { errorClassOf, isDeterministicError } from './deterministic-errors';
import { writeResultRows } from './result-writer';
import { replayScenarioReport } from './scenario-report';
import { syntheticSnapshotContent } from './synthetic-cluster';
import { ProgressThrottle } from './progress-throttle';
import { collectGarbage, RELEASE_MEMORY_AFTER_PODS, releaseMemory } from './release-memory';

/** Progress messages per second at most; the engine calls back after every pod. */
const PROGRESS_INTERVAL_MS = 200;

/** Runs the job and posts its output; resolves with the run's pod count. */
async function run(job: EngineJob): Promise<number> {
  const throttle = new ProgressThrottle(PROGRESS_INTERVAL_MS);
  const report = (progress: EngineProgress) => {
    if (throttle.passes(progress, Date.now())) parentPort!.postMessage({ type: 'progress', progress });
  };
  const output = executeEngineJob(job, report);
  const pods = output.placements.length;
  if (job.write) {
    await writeResultRows(job.runId, output, job.write, report);
    output.written = { placements: output.placements.length, explanations: output.explanations.length };
    output.placements = [];
    output.explanations = [];
  }
  parentPort!.postMessage({ type: 'done', output });
  return pods;
}

function fail(error: unknown): void {
  const failure: EngineFailure = {
    name: errorClassOf(error),
    message: (error as Error)?.message ?? String(error),
    deterministic: isDeterministicError(error),
    ...(typeof (error as { code?: unknown })?.code === 'string'
      ? { code: (error as { code: string }).code }
      : {}),
  };
  parentPort!.postMessage({ type: 'failed', failure });
}

/** A replay of the last pod of a small synthetic run: every default plugin's hot path runs. */
function warm(): void {
  const content = syntheticSnapshotContent({ nodes: 50, pods: 400 });
  replayPodExplanation({ runId: 'warm', type: 'simulate', content, seed: 0, options: {} }, 'default/pod-399');
}

parentPort!.on('message', (message: ThreadRequest) => {
  if (message.type === 'warm') {
    try {
      warm();
      parentPort!.postMessage({ type: 'done', output: null });
    } catch (error) {
      fail(error);
    }
    return;
  }
  if (message.type === 'scenario-report') {
    try {
      parentPort!.postMessage({ type: 'done', output: replayScenarioReport(message.job, message.label) });
    } catch (error) {
      fail(error);
    }
    return;
  }
  if (message.type === 'replay') {
    try {
      parentPort!.postMessage({ type: 'done', output: replayPodExplanation(message.job, message.pod) });
    } catch (error) {
      fail(error);
    }
    return;
  }
  // A full collection once the parent has the result (the thread is idle meanwhile: the worker
  // finishes the run), returning the pages to the OS after a large run (release-memory.ts).
  // Replays (the api's) keep their prepared run for the next pod and are not followed by one.
  run(message.job).then(
    (pods) => setImmediate(pods >= RELEASE_MEMORY_AFTER_PODS ? releaseMemory : collectGarbage),
    (error: unknown) => {
      fail(error);
      setImmediate(collectGarbage);
    },
  );
});
parentPort!.postMessage({ type: 'ready' });
