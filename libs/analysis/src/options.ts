import type { EngineOptions } from '@schedlab/scenarios';

export type { EngineOptions };

/** What every analysis runs with: the engine's options plus the cluster controllers' switches. */
export interface AnalysisOptions extends EngineOptions {
  /**
   * Run the PV controller on the cluster before anything schedules, as a cluster would: unbound
   * claims of Immediate classes are bound or provisioned (zone chosen by the seed, not by pods).
   * Default true; false schedules the objects as given, to see the scheduler alone.
   */
  pvController?: boolean;
}

/** Where a run is: a phase name and, while pods schedule, how many of them are done. */
export interface AnalysisProgress {
  phase: string;
  podsProcessed: number;
  podsTotal: number;
}

export type ProgressReport = (progress: AnalysisProgress) => void;

/** The engine's options alone (without the controllers' switches). */
export function engineOptionsOf(options: AnalysisOptions): EngineOptions {
  const { pvController: _pvController, ...engine } = options;
  return engine;
}
