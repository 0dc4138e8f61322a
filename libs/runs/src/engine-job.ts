/** What crosses the worker-thread boundary: plain, structured-cloneable data only. */
import type { RunType } from '@schedlab/jobs';
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
}

export interface PlacementRow {
  ordinal: number;
  podKey: string;
  namespace: string;
  name: string;
  ownerKind: string | null;
  ownerName: string | null;
  node: string | null;
  zone: string | null;
  status: 'scheduled' | 'unschedulable' | 'gated' | 'error';
  priority: number;
  message: string | null;
  nominatedNode: string | null;
  victims: string[] | null;
}

export interface EngineOutput {
  engineVersion: string;
  summary: Record<string, unknown>;
  analysis: Record<string, unknown> | null;
  /** @schedlab/storage's summary per StorageClass and zone after the run (simulate runs with claims). */
  storageSummary: ClassStorage[] | null;
  placements: PlacementRow[];
  explanations: { namespace: string; name: string; explanation: Record<string, unknown> }[];
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
}
