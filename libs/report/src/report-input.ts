/**
 * What a report shows, independent of how the run was produced: the nodes after the run (with
 * requested vs allocatable) and one record per scheduled-or-pending pod with its explanation.
 * Plain JSON, so it can be stored with a run and rendered again later.
 */

import type { DeschedulingReport, StorageStepReport } from '@schedlab/scenarios';
import type { ClaimDevice, DeviceClassSummary } from '@schedlab/scheduler';
import type { DataLossRow } from '@schedlab/storage';

/** cpu in millicores, memory in bytes. */
export interface ReportResources {
  cpu: number;
  memory: number;
}

export interface ReportNode {
  name: string;
  /** topology.kubernetes.io/zone (or the legacy label); "" when the node has none. */
  zone: string;
  allocatable: ReportResources;
  requested: ReportResources;
  /** `ns/name` of every pod bound to the node once the run is over. */
  pods: string[];
  /** Cordoned (spec.unschedulable). */
  unschedulable: boolean;
}

export interface ReportFilterFailure {
  node: string;
  /** The first Filter plugin that rejected the node (upstream stops there). */
  plugin: string;
  reasons: string[];
}

export interface ReportNodeScore {
  node: string;
  total: number;
  /** plugin → normalized score × weight. */
  plugins: Record<string, number>;
}

export interface ReportPod {
  /** `ns/name`. */
  pod: string;
  outcome: string;
  node: string | null;
  priority: number;
  /** The FitError of the (first) failed attempt, in upstream wording, or why the pod was not tried. */
  message?: string;
  nominatedNode?: string;
  victims?: string[];
  /** One row per failed node, or per group of failed nodes (`node` then reads e.g. "12 nodes"). */
  filters: ReportFilterFailure[];
  /** How many nodes failed Filter (absent in reports stored before groups existed: filters.length). */
  failedNodes?: number;
  /** How many nodes were scored; `scores` keeps only the best of them (see maxScoresPerPod). */
  scoredNodes: number;
  scores: ReportNodeScore[];
  /** DRA: the devices the pod's claims were allocated when it was placed. */
  devices?: ClaimDevice[];
}

export interface ReportRun {
  /** e.g. "baseline", "after drain", or the run id. */
  label: string;
  compatibilityVersion: string;
  nodes: ReportNode[];
  pods: ReportPod[];
  /** DRA devices per DeviceClass and node once the run is over (clusters with DeviceClasses). */
  devices?: DeviceClassSummary[];
}

/** A claim and the volume it is bound to (or a volume no claim uses), placed in its zone. */
export interface ReportVolume {
  /** `ns/name`, or "" for a volume no claim uses (Released, Available). */
  claim: string;
  /** The PersistentVolume, or null while the claim is unbound. */
  volume: string | null;
  storageClass: string;
  capacity: string;
  /** The volume's zone; "" when it has none (not zonal, or unbound). */
  zone: string;
  /** The claim's phase, or the volume's when no claim uses it. */
  phase: string;
  /** Pods using the claim. */
  pods: string[];
}

/** One row of a scenario's data-loss report (destroyed, retained, stranded, waiting on a pod). */
export type ReportDataLoss = DataLossRow;

export interface ReportStorage {
  volumes: ReportVolume[];
  /** Present for a scenario run: what its steps did to the data. */
  dataLoss?: ReportDataLoss[];
  /** Present for a scenario run: per step, the claims and volumes that changed phase and the events. */
  timeline?: ReportStorageStep[];
}

/** One step of a scenario's storage timeline, as `simulate --scenario` prints it. */
export type ReportStorageStep = StorageStepReport;

/** A descheduling what-if: what was evicted, where it went, and the figures on either side. */
export interface ReportDescheduling {
  rounds: Omit<DeschedulingReport['rounds'][number], 'evictions'>[];
  evictions: DeschedulingReport['evictions'];
  converged: boolean;
  oscillation: DeschedulingReport['oscillation'];
  summary: DeschedulingReport['summary'];
  spread: { before: DeschedulingReport['before']['spread']; after: DeschedulingReport['after']['spread'] };
  violations: {
    before: DeschedulingReport['before']['violations'];
    after: DeschedulingReport['after']['violations'];
  };
  zones: { before: DeschedulingReport['before']['zones']; after: DeschedulingReport['after']['zones'] };
}

/** One run, or two for a before/after comparison (runs[0] is "before"). */
/** A timeline run (docs/timeline.md): pending pods by queue over time and how long pods waited. */
export interface ReportTimeline {
  /** Sample times, seconds after the start. */
  t: number[];
  active: number[];
  backoff: number[];
  unschedulable: number[];
  gated: number[];
  /** Waiting time (arrival to bind) histogram: upper bounds in seconds (null: above the last) and counts. */
  histogram: { le: (number | null)[]; count: number[] };
  /** One line each: counts and time-to-schedule percentiles. */
  summary: string[];
}

export interface ReportInput {
  title: string;
  runs: [ReportRun] | [ReportRun, ReportRun];
  /** Claims and volumes once the (last) run is over; absent when the cluster has none. */
  storage?: ReportStorage;
  /** A descheduling what-if (runs are the cluster before and after it). */
  descheduling?: ReportDescheduling;
}

/** A timeline report: its charts, without cluster views (the timeline's result has no node list). */
export interface TimelineReportInput {
  title: string;
  runs: [];
  timeline: ReportTimeline;
}
