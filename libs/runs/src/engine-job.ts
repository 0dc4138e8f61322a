/** What crosses the worker-thread boundary: plain, structured-cloneable data only. */
import type { NewPlacement } from '@schedlab/db';
import type { RunType } from '@schedlab/analysis';
import type { RecordedAttempt, ReplayCursor } from '@schedlab/scheduler';
import type { ClassStorage } from '@schedlab/storage';

export type { RunType };

export interface EngineJob {
  runId: string;
  type: RunType;
  /** The snapshot's stored content: gzip of {"items": [...]}. */
  content: Uint8Array;
  /** The profile's KubeSchedulerConfiguration; absent for the built-in default. */
  schedulerConfiguration?: unknown;
  /** A validated scenario document, if the run has one. */
  scenario?: unknown;
  seed: number;
  /** Type-specific options as stored on the run. */
  options: Record<string, unknown>;
  /**
   * Where the thread writes the placement and explanation rows itself (result-writer), tagged
   * with the execution's claim; the output it posts back then carries no rows. Without it the
   * rows come back in the output.
   */
  write?: { databaseUrl: string; claim: number };
  /**
   * For an explanation replay: what the run recorded, so the replay fast-forwards to the pod
   * (replayPodExplanation): every attempt before the pod in scheduling order (its placements:
   * node, nominated node, victims) and the pod's replay cursor (stored with its explanation).
   */
  fastForward?: { attempts: RecordedAttempt[]; cursor: ReplayCursor };
}

/** One pod's full explanation recomputed by replay, and the run's node names. */
export interface PodReplay {
  /** The pod's PodSchedulingResult at explain level `full`. */
  result: Record<string, unknown>;
  nodes: string[];
  /**
   * How it was recomputed: `fast-forward` (recorded effects applied, one cycle run) or `replay`
   * (every earlier pod scheduled again); `fallback` says why a fast-forward was not possible.
   */
  method?: 'fast-forward' | 'replay';
  fallback?: string;
}

/** One placement row as the engine thread hands it over: the repository's own insert shape. */
export type PlacementRow = NewPlacement;

export interface EngineOutput {
  engineVersion: string;
  summary: Record<string, unknown>;
  analysis: Record<string, unknown> | null;
  /** @schedlab/storage's summary per StorageClass and zone after the run (simulate runs with claims). */
  storageSummary: ClassStorage[] | null;
  placements: PlacementRow[];
  explanations: { namespace: string; name: string; explanation: Record<string, unknown> }[];
  /** Set when the thread wrote the rows itself (EngineJob.write): how many it wrote. */
  written?: { placements: number; explanations: number };
}

export interface EngineProgress {
  phase: string;
  podsProcessed: number;
  podsTotal: number;
}

/** An error as it comes back from the thread; `deterministic` means retrying cannot help. */
export interface EngineFailure {
  name: string;
  message: string;
  deterministic: boolean;
  /** The error's own code, when it has one (ReplayUnavailableError, PostgreSQL errors). */
  code?: string;
}

/** What the parent posts to an engine thread: a run, or one pod's explanation replay. */
export type ThreadRequest =
  | { type: 'run'; job: EngineJob }
  | { type: 'replay'; job: EngineJob; pod: string }
  /** The report of a run with a scenario, recomputed (scenario-report.ts); `label` heads it. */
  | { type: 'scenario-report'; job: EngineJob; label: string }
  /** Runs a small replay so the engine's code is compiled and optimised before real work. */
  | { type: 'warm' };
