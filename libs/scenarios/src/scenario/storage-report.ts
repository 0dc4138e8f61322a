/**
 * A scenario's storage record as every output shows it (the CLI's documents, a run's stored
 * result): the steps where something happened to a claim or volume, with their events in
 * `kubectl describe` columns, and the data-loss report.
 */
import type { PhaseTransition, StorageDataLossReport } from '@schedlab/storage';
import type { ScenarioRun } from './run';

export interface StorageStepReport {
  /** The step's index in the scenario; null for the cluster before the first step. */
  index: number | null;
  operation: string;
  events: { object: string; type: string; reason: string; from: string; message: string }[];
  transitions: PhaseTransition[];
  /** Claims deleted while a scheduled pod uses them (Terminating until it is gone). */
  deferred: string[];
}

export interface StorageReport {
  timeline: StorageStepReport[];
  dataLoss: StorageDataLossReport;
}

/** Undefined when the cluster never had a claim or volume. */
export function storageReport(run: ScenarioRun): StorageReport | undefined {
  if (!run.storage) return undefined;
  return {
    timeline: run.storage.steps
      .filter((s) => s.events.length > 0 || s.transitions.length > 0 || s.deferred.length > 0)
      .map((s) => ({
        index: s.step === 0 ? null : s.step - 1,
        operation: s.operation,
        events: s.events.map((e) => ({
          object: e.object,
          type: e.type,
          reason: e.reason,
          from: e.source,
          message: e.message,
        })),
        transitions: s.transitions,
        deferred: s.deferred,
      })),
    dataLoss: run.storage.dataLoss,
  };
}
