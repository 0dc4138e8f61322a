/**
 * A full garbage collection on demand, for the moments the worker knows a run's memory has just
 * become garbage: an engine thread's run is over (its simulation state, explanations and row
 * batches), and the worker has finished a run (its progress, queries and messages). Left to
 * itself, V8 collects the old generation only when it next fills, and keeps the pages it frees in
 * a process-wide pool: the next run then allocates on top of the last one's garbage, and a
 * worker's peak RSS climbed run after run (docs/benchmarks.md, "Where a service worker's memory
 * goes").
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type V8Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's gc of this isolate (each thread loads this module for itself): --expose-gc is a process-wide
 * flag that only adds the function to contexts made after it is set, hence the new context.
 */
let gc: V8Gc | undefined;

/**
 * Collects everything unreachable and returns V8's pooled free pages to the operating system
 * (V8's "last resort" collection: a few full passes, then the pool is released).
 */
export function releaseMemory(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as V8Gc;
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
