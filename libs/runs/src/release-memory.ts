/**
 * Full garbage collections on demand, for the moments the worker knows a run's memory has just
 * become garbage: an engine thread's run is over (its simulation state, explanations and row
 * batches), and the worker has finished a run (its progress, queries and messages). Left to
 * itself, V8 collects the old generation only when it next fills, and keeps the pages it frees in
 * a process-wide pool: the next run then allocates on top of the last one's leftovers, and a
 * worker's peak RSS climbed run after run (docs/benchmarks.md, "Where a service worker's memory
 * goes").
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs of at least this many pods are followed by releaseMemory, on the engine thread and on the
 * worker's own thread, where it pauses the event loop ~70-200 ms on the 2-core benchmark machine:
 * under 5 % of such a run, and worth it (a 10,000-pod run leaves tens of MiB). Smaller runs leave
 * less than the pause would cost a stream of them; the engine thread just collects after those.
 */
export const RELEASE_MEMORY_AFTER_PODS = 1000;

type V8Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's gc of this isolate (each thread loads this module for itself): --expose-gc is a process-wide
 * flag that only adds the function to contexts made after it is set, hence the new context.
 */
let gc: V8Gc | undefined;

function v8Gc(): V8Gc {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as V8Gc;
  }
  return gc;
}

/** A full collection: what is unreachable goes, the pages it freed stay pooled for reuse. */
export function collectGarbage(): void {
  v8Gc()();
}

/**
 * Collects everything unreachable and returns V8's pooled free pages to the operating system
 * (V8's "last resort" collection: a few full passes, then the pool is released).
 */
export function releaseMemory(): void {
  v8Gc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
