/**
 * Thins a run's progress reports to a few a second without losing what a watcher needs: the first
 * report of each phase and the last of a counted phase always pass, so every phase the run went
 * through shows, however short it was. Only repeats within the same per-pod phase are dropped.
 * Dependency-free: the engine thread uses it too.
 */
import type { EngineProgress } from './engine-job';

/** Phases that report after every pod or batch; the others report a handful of times a run. */
const PER_ITEM_PHASES = new Set(['scheduling', 'writing']);

export class ProgressThrottle {
  private lastPassedAt = Number.NEGATIVE_INFINITY;
  private lastPhase: string | undefined;

  constructor(private readonly intervalMs: number) {}

  /** Whether `progress`, reported at `now` (ms), should go out; records it when it does. */
  passes(progress: EngineProgress, now: number): boolean {
    const newPhase = progress.phase !== this.lastPhase;
    const finished = progress.podsTotal > 0 && progress.podsProcessed === progress.podsTotal;
    const recent = now - this.lastPassedAt < this.intervalMs;
    if (!newPhase && !finished && recent && PER_ITEM_PHASES.has(progress.phase)) return false;
    this.lastPassedAt = now;
    this.lastPhase = progress.phase;
    return true;
  }
}
