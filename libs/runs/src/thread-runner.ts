/**
 * Runs EngineJobs on worker threads, so the worker process's event loop stays free for BullMQ
 * lock renewal, progress writes and cancellation polling while the engine computes. Finished
 * threads are kept for the next job (loading the engine dominates small runs); aborting the signal
 * terminates the job's thread at once (the engine has no yield points to check) and it is not reused.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ScenarioReport } from '@schedlab/report';
import type {
  EngineFailure,
  EngineJob,
  EngineOutput,
  EngineProgress,
  PodReplay,
  ThreadRequest,
} from './engine-job';

const workspaceRoot = path.resolve(__dirname, '..', '..', '..');
/** Idle threads kept per process; more concurrent runs start threads of their own. */
const MAX_IDLE_THREADS = 4;

/** A failure the engine reported; `deterministic` failures are not worth retrying. */
export class EngineError extends Error {
  readonly deterministic: boolean;
  readonly code: string | undefined;
  constructor(failure: EngineFailure) {
    super(failure.message);
    this.name = failure.name;
    this.deterministic = failure.deterministic;
    this.code = failure.code;
  }
}

/** The thread was stopped (cancel or timeout); `reason` is what the signal was aborted with. */
export class EngineAbortedError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'EngineAbortedError';
  }
}

/**
 * The thread loads engine-thread next to this module. The apps run compiled JavaScript (dist/);
 * under Jest and the bench scripts this module is TypeScript run through SWC, so the thread
 * registers @swc-node/register before loading its TypeScript entry module.
 */
function threadBootstrap(): string {
  if (__filename.endsWith('.js'))
    return `require(${JSON.stringify(path.join(__dirname, 'engine-thread.js'))});`;
  const entry = path.join(__dirname, 'engine-thread.ts');
  return [
    `process.env.SWC_NODE_PROJECT ??= ${JSON.stringify(path.join(workspaceRoot, 'tsconfig.base.json'))};`,
    `require(${JSON.stringify(require.resolve('@swc-node/register'))});`,
    `require(${JSON.stringify(entry)});`,
  ].join('\n');
}

/**
 * V8's young generation of an engine thread: 4 MiB a semi-space (V8 counts three semi-spaces in
 * this limit), as the `schedlab` bin starts Node with (apps/cli/bin/schedlab.js). Left to V8 it
 * grows to 32 MiB a semi-space while a snapshot loads, and the fresh memory that touches costs a
 * page fault per 4 KiB and shows in the worker's peak RSS (docs/benchmarks.md).
 */
export const ENGINE_THREAD_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 12 } as const;

/** A new engine thread (exported for its spec). */
export function startEngineThread(): Worker {
  return new Worker(threadBootstrap(), {
    eval: true,
    execArgv: [],
    resourceLimits: ENGINE_THREAD_RESOURCE_LIMITS,
  });
}

type ThreadMessage = {
  type: string;
  progress?: EngineProgress;
  output?: unknown;
  failure?: EngineFailure;
};

const idle: Worker[] = [];

function takeThread(): Worker {
  const reused = idle.pop(); // an idle thread never runs code, so it cannot have died meanwhile
  if (reused) {
    reused.ref();
    return reused;
  }
  return startEngineThread();
}

/**
 * Starts an engine thread ahead of need, warms it with a small replay (loading the engine and
 * optimising its hot code is most of a first small job's time) and keeps it idle, so the first
 * real job (say, the api's first explanation replay) does not pay for either. Never keeps the
 * process alive; a thread that fails to warm is dropped.
 */
export function prewarmEngineThread(): void {
  const worker = startEngineThread();
  worker.unref();
  const onMessage = (message: ThreadMessage) => {
    if (message.type === 'ready') worker.postMessage({ type: 'warm' } satisfies ThreadRequest);
    else if (message.type === 'done') {
      worker.off('message', onMessage).off('error', onError);
      releaseThread(worker);
    } else if (message.type === 'failed') {
      worker.off('message', onMessage).off('error', onError);
      void worker.terminate();
    }
  };
  const onError = () => worker.off('message', onMessage);
  worker.on('message', onMessage).once('error', onError);
}

function releaseThread(worker: Worker): void {
  if (idle.length >= MAX_IDLE_THREADS) {
    void worker.terminate();
    return;
  }
  // An idle thread must not keep the process alive, and one that dies while idle is forgotten.
  worker.unref();
  idle.push(worker);
}

export function runEngineInThread(
  job: EngineJob,
  hooks: { onProgress?: (progress: EngineProgress) => void; signal?: AbortSignal } = {},
): Promise<EngineOutput> {
  return inThread<EngineOutput>({ type: 'run', job }, hooks);
}

/**
 * One pod's full explanation recomputed by replaying its run (engine-task's
 * replayPodExplanation) on an engine thread; aborting the signal terminates the thread.
 */
export function replayInThread(
  job: EngineJob,
  pod: string,
  hooks: { signal?: AbortSignal } = {},
): Promise<PodReplay> {
  return inThread<PodReplay>({ type: 'replay', job, pod }, hooks);
}

/** The HTML report's data of a run with a scenario (scenario-report.ts), on an engine thread. */
export function scenarioReportInThread(
  job: EngineJob,
  label: string,
  hooks: { signal?: AbortSignal } = {},
): Promise<ScenarioReport> {
  return inThread<ScenarioReport>({ type: 'scenario-report', job, label }, hooks);
}

function inThread<T>(
  request: ThreadRequest,
  hooks: { onProgress?: (progress: EngineProgress) => void; signal?: AbortSignal },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (hooks.signal?.aborted) return reject(new EngineAbortedError(hooks.signal.reason));
    const worker = takeThread();
    let settled = false;
    const settle = (action: () => void, reusable: boolean) => {
      if (settled) return;
      settled = true;
      hooks.signal?.removeEventListener('abort', onAbort);
      // Only this job's listeners: Worker keeps internal ones (its message port's ref counting).
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      action();
      if (reusable) releaseThread(worker);
      else void worker.terminate();
    };
    const onAbort = () => settle(() => reject(new EngineAbortedError(hooks.signal!.reason)), false);
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    const onMessage = (message: ThreadMessage) => {
      if (message.type === 'progress') hooks.onProgress?.(message.progress!);
      else if (message.type === 'done') settle(() => resolve(message.output as T), true);
      else if (message.type === 'failed') settle(() => reject(new EngineError(message.failure!)), true);
    };
    const onError = (error: Error) => settle(() => reject(error), false);
    const onExit = (code: number) =>
      settle(
        () => reject(new Error(`engine thread exited with code ${code} before reporting a result`)),
        false,
      );
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(request);
  });
}
