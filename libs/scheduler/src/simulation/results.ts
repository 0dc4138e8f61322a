/** The per-pod outcome of a simulation, in kube-scheduler's own terms (also the conformance format). */
import type { AttemptRecord } from '../schedule-one';

/** An attempt as reported: the AttemptRecord without the engine's internal state. */
export type AttemptSummary = Omit<AttemptRecord, 'diagnosis' | 'state' | 'error' | 'selectedNode'>;

/**
 * What each field of an AttemptSummary holds at each explain level:
 * - `explanation`: compact and full.
 * - `filterReasons` / `filterPlugin` / `filterCode`: full; compact only when no node was feasible.
 * - `feasible`, `pluginScores`, `rawScores`, `maxScoreNodes`, every node's `scores`: full only;
 *   compact and summary keep the chosen node's total in `scores`.
 */

/** What binding the pod did to its claims; parts are absent when empty. */
export interface VolumeBindingSummary {
  staticBindings?: Record<string, string>;
  provisioned?: Record<string, string>;
  selectedNode?: string;
}

export interface PreemptionSummary {
  nominatedNode: string;
  victims: string[];
  candidates: { node: string; victims: string[]; numPDBViolations: number }[];
}

export type PodOutcome = 'scheduled' | 'unschedulable' | 'gated' | 'no-profile' | 'error';

export interface PodSchedulingResult extends AttemptSummary {
  pod: string;
  priority: number;
  schedulerName: string;
  outcome: PodOutcome;
  node: string | null;
  attempts: number;
  nominatedNode?: string;
  victims?: string[];
  /** With preemption: the failed attempt that triggered it. */
  firstAttempt?: AttemptSummary;
  preemption?: PreemptionSummary;
  volumes?: VolumeBindingSummary;
  /** DRA: the pod's claims ("ns/name") and their devices ("request driver/pool/device") after Reserve. */
  claims?: Record<string, string[]>;
  /** Internal errors (a plugin returned Error) or why the pod never entered the queue. */
  error?: string;
  /** With SimulatorOptions.replayCursors: the simulator's cursor before this pod's cycle. */
  replayCursor?: { rng: number; nextStartNodeIndex: number };
}
