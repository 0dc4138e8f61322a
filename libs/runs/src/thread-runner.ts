/**
 * Runs an EngineJob on its own worker thread, so the worker process's event loop stays free for
 * BullMQ lock renewal, progress writes and cancellation polling while the engine computes.
 * Aborting the signal terminates the thread at once (the engine has no yield points to check).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EngineFailure, EngineJob, EngineOutput, EngineProgress } from './engine-job';

const workspaceRoot = path.resolve(__dirname, '..', '..', '..');

/** A failure the engine reported; `deterministic` failures are not worth retrying. */
export class EngineError extends Error {
  readonly deterministic: boolean;
  constructor(failure: EngineFailure) {
    super(failure.message);
    this.name = failure.name;
    this.deterministic = failure.deterministic;
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
 * The sources are TypeScript run through @swc-node/register in every process (apps and Jest
 * alike), so the thread registers it too before loading its entry module.
 */
function threadBootstrap(): string {
  const entry = path.join(__dirname, 'engine-thread.ts');
  return [
    `process.env.SWC_NODE_PROJECT ??= ${JSON.stringify(path.join(workspaceRoot, 'tsconfig.base.json'))};`,
    `require(${JSON.stringify(require.resolve('@swc-node/register'))});`,
    `require(${JSON.stringify(entry)});`,
  ].join('\n');
}

export function runEngineInThread(
  job: EngineJob,
  hooks: { onProgress?: (progress: EngineProgress) => void; signal?: AbortSignal } = {},
): Promise<EngineOutput> {
  return new Promise<EngineOutput>((resolve, reject) => {
    if (hooks.signal?.aborted) return reject(new EngineAbortedError(hooks.signal.reason));
    const worker = new Worker(threadBootstrap(), { eval: true, workerData: job, execArgv: [] });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      hooks.signal?.removeEventListener('abort', onAbort);
      action();
      void worker.terminate();
    };
    const onAbort = () => settle(() => reject(new EngineAbortedError(hooks.signal!.reason)));
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: { type: string; progress?: EngineProgress; output?: EngineOutput; failure?: EngineFailure }) => {
      if (message.type === 'progress') hooks.onProgress?.(message.progress!);
      else if (message.type === 'done') settle(() => resolve(message.output!));
      else if (message.type === 'failed') settle(() => reject(new EngineError(message.failure!)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`engine thread exited with code ${code} before reporting a result`))),
    );
  });
}
