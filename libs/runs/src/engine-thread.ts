/**
 * Worker-thread entry: runs EngineJobs one at a time as they arrive, posting progress (throttled),
 * then the output or a failure. A thread is reused for later jobs (loading the engine is the
 * expensive part of a small run); the parent terminates it to cancel or time out a run.
 */
import { parentPort } from 'node:worker_threads';
import type { EngineFailure, EngineJob, EngineProgress } from './engine-job';
import { executeEngineJob } from './engine-task';
import { errorClassOf, isDeterministicError } from './deterministic-errors';

/** Progress messages per second at most; the engine calls back after every pod. */
const PROGRESS_INTERVAL_MS = 200;

function run(job: EngineJob): void {
  let lastSent = 0;
  const report = (progress: EngineProgress) => {
    const now = Date.now();
    const last = progress.podsTotal > 0 && progress.podsProcessed === progress.podsTotal;
    if (!last && progress.phase === 'scheduling' && now - lastSent < PROGRESS_INTERVAL_MS) return;
    lastSent = now;
    parentPort!.postMessage({ type: 'progress', progress });
  };
  try {
    const output = executeEngineJob(job, report);
    parentPort!.postMessage({ type: 'done', output });
  } catch (error) {
    const failure: EngineFailure = {
      name: errorClassOf(error),
      message: (error as Error)?.message ?? String(error),
      deterministic: isDeterministicError(error),
    };
    parentPort!.postMessage({ type: 'failed', failure });
  }
}

parentPort!.on('message', (message: { type: 'run'; job: EngineJob }) => run(message.job));
parentPort!.postMessage({ type: 'ready' });
