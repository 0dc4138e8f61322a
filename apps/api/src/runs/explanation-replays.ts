/**
 * Full explanations on demand: one pod's complete record (every node's filter verdict, every
 * plugin's raw and weighted score) is recomputed by replaying its run up to that pod, exactly as
 * the worker ran it (libs/runs replayPodExplanation), on an engine thread so the api's event loop
 * never runs the engine. At most EXPLAIN_REPLAY_CONCURRENCY replays run at once per process, a
 * few more wait, the rest are refused (503); each request has EXPLAIN_REPLAY_TIMEOUT_MS from
 * its arrival (the thread is terminated after it). A finished run never changes, so recent
 * replays are cached, and concurrent requests for the same pod share one replay. The HTML report
 * of a run with a scenario is recomputed the same way (scenarioReport).
 */
import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import {
  EngineAbortedError,
  EngineError,
  type EngineJob,
  type PodReplay,
  prewarmEngineThread,
  replayInThread,
  scenarioReportInThread,
} from '@schedlab/runs';
import type { ScenarioReport } from '@schedlab/report';
import { ApiError } from '../common/api-error';

/** Replays kept (a 5,000-node pod's full record is a few MB at most). */
const CACHE_ENTRIES = 32;
/** Requests waiting for a replay slot, per slot; beyond, 503 at once. */
const WAITING_PER_SLOT = 4;

class ReplayTimeout extends Error {}

const fullExplanationTimedOut = (ms: number) =>
  `The full explanation took longer than ${ms} ms to replay; the compact one is served without ?detail=full`;
const reportTimedOut = (ms: number) => `The scenario run's report took longer than ${ms} ms to recompute`;

/** Rejects when the signal aborts (reading the run from the database counts against the limit too). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new EngineAbortedError(signal.reason));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

@Injectable()
export class ExplanationReplays implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly cache = new Map<string, unknown>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly waiting: (() => void)[] = [];
  private readonly stops = new Set<AbortController>();
  private active = 0;

  constructor(@InjectAppConfig() private readonly config: AppConfig) {}

  /** `key` names the replay (run and pod); `load` reads the run's job only on a cache miss. */
  replay(key: string, pod: string, load: () => Promise<EngineJob>): Promise<PodReplay> {
    return this.shared(key, load, fullExplanationTimedOut, (job, signal) =>
      replayInThread(job, pod, { signal }),
    );
  }

  /**
   * The HTML report's data of a run with a scenario, recomputed on an engine thread under the
   * same slots, timeout and cache as explanation replays (a finished run's report never changes).
   */
  scenarioReport(key: string, label: string, load: () => Promise<EngineJob>): Promise<ScenarioReport> {
    return this.shared(`report/${key}`, load, reportTimedOut, (job, signal) =>
      scenarioReportInThread(job, label, { signal }),
    );
  }

  private async shared<T>(
    key: string,
    load: () => Promise<EngineJob>,
    timedOut: (timeoutMs: number) => string,
    inThread: (job: EngineJob, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key); // most recently used last
      this.cache.set(key, cached);
      return cached as T;
    }
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const replay = this.compute(key, load, timedOut, inThread).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, replay);
    return replay;
  }

  /**
   * One engine thread loaded ahead of the first replay (~0.5 s saved on it). Not under tests: there
   * the thread would compile the engine from TypeScript for every api the suite starts.
   */
  onApplicationBootstrap(): void {
    if (this.config.nodeEnv !== 'test') prewarmEngineThread();
  }

  onModuleDestroy(): void {
    for (const stop of this.stops) stop.abort(new Error('api shutting down'));
  }

  private async compute<T>(
    key: string,
    load: () => Promise<EngineJob>,
    timedOut: (timeoutMs: number) => string,
    inThread: (job: EngineJob, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { concurrency, timeoutMs } = this.config.explainReplay;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new ReplayTimeout()), timeoutMs);
    this.stops.add(stop);
    try {
      await this.slot(stop.signal, concurrency);
      try {
        const job = await Promise.race([load(), aborted(stop.signal)]);
        const result = await inThread(job, stop.signal);
        this.remember(key, result);
        return result;
      } finally {
        this.release();
      }
    } catch (error) {
      throw this.apiErrorOf(error, timeoutMs, timedOut);
    } finally {
      clearTimeout(timer);
      this.stops.delete(stop);
    }
  }

  private apiErrorOf(error: unknown, timeoutMs: number, timedOut: (timeoutMs: number) => string): unknown {
    if (error instanceof ApiError) return error;
    if (error instanceof EngineAbortedError && error.reason instanceof ReplayTimeout) {
      return new ApiError(503, 'replay_timeout', timedOut(timeoutMs));
    }
    if (error instanceof EngineError && error.code === 'pod_not_found') {
      return new ApiError(404, 'not_found', error.message);
    }
    if (error instanceof EngineError && error.code === 'replay_unavailable') {
      return ApiError.conflict('replay_unavailable', error.message);
    }
    return error;
  }

  /** Waits for a free replay slot (or refuses when too many already wait). */
  private slot(signal: AbortSignal, concurrency: number): Promise<void> {
    if (this.active < concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= concurrency * WAITING_PER_SLOT) {
      return Promise.reject(
        new ApiError(
          503,
          'replay_busy',
          'Too many full explanations are being replayed; retry in a few seconds',
          {
            retryAfterSeconds: 5,
          },
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(start);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new EngineAbortedError(signal.reason));
      };
      const start = () => {
        signal.removeEventListener('abort', onAbort);
        this.active++;
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  private remember(key: string, result: unknown): void {
    this.cache.set(key, result);
    while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }
}
