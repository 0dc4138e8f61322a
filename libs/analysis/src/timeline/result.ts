/**
 * What a timeline run reports: per pod its arrival, attempts, bind time, the queue it last waited
 * in and why (its last FitError); time-to-schedule percentiles; and per time step the pending pods
 * by queue and the requested share of each zone's allocatable CPU and memory. Times are seconds
 * after the start. Columnar series keep a day at one-minute steps small.
 */

/** `rejected`: bound, then refused by the kubelet's admission (lastFailure: OutOf<resource>: …). */
export type TimelineOutcome =
  'scheduled' | 'pending' | 'completed' | 'preempted' | 'deleted' | 'lost' | 'error' | 'rejected';

export interface TimelinePod {
  pod: string;
  priority: number;
  arrivedAt: number;
  attempts: number;
  firstAttemptAt?: number;
  boundAt?: number;
  node?: string;
  /** boundAt − arrivedAt. */
  waitedSeconds?: number;
  /** The queue the pod went back to after its last failed attempt (or Gated), while it waited. */
  lastQueue?: 'Active' | 'Backoff' | 'Unschedulable' | 'Gated';
  /** The last attempt's FitError (or the gate's message). */
  lastFailure?: string;
  /** Set by preemption; kept while the pod waits for its victims. */
  nominatedNode?: string;
  preemptedBy?: string;
  preemptedAt?: number;
  /** When the pod left its node (completed, deleted, lost, or a victim's grace period over). */
  endedAt?: number;
  outcome: TimelineOutcome;
  /** A controller's replacement: the pod it replaces (a StatefulSet's keeps the same name). */
  replaces?: string;
  /** The replacement its controller created when this pod went away. */
  replacedBy?: string;
  /** Admission refused the replacement (e.g. a quota): its message. */
  replacementRejected?: string;
}

export interface TimelineSeries {
  /** Sample times. */
  t: number[];
  active: number[];
  backoff: number[];
  unschedulable: number[];
  gated: number[];
  /** Bound pods, terminating victims included. */
  running: number[];
  /** Requested / allocatable per zone ("" for nodes without a zone label), one row per zone. */
  utilization: { zones: string[]; cpu: number[][]; memory: number[][] };
}

export interface TimelinePreemption {
  at: number;
  preemptor: string;
  node: string;
  victims: string[];
  /** Victims whose eviction violates a PodDisruptionBudget (absent when none). */
  pdbViolations?: number;
}

export interface TimeToSchedule {
  /** Pods bound during the run. */
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Waiting-time histogram: upper bounds in seconds (the last is +Infinity as null) and counts. */
  histogram: { le: (number | null)[]; count: number[] };
}

export interface TimelineSummary {
  pods: number;
  scheduled: number;
  completed: number;
  pendingAtEnd: number;
  preempted: number;
  attempts: number;
  timeToSchedule: TimeToSchedule;
}

export interface TimelineResult {
  compatibilityVersion: string;
  start: string;
  endSeconds: number;
  summary: TimelineSummary;
  pods: TimelinePod[];
  preemptions: TimelinePreemption[];
  series: TimelineSeries;
  /** Objects admission refused: workloads' pods at the start, controllers' replacements later. */
  rejected?: Array<{ object: string; message: string; plugin?: string }>;
}

/** Histogram bounds in seconds: the waits operators ask about, from "at once" to "over an hour". */
export const WAIT_BUCKETS = [0, 1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarizeTimeline(input: {
  start: string;
  endSeconds: number;
  compatibilityVersion: string;
  pods: TimelinePod[];
  preemptions: TimelinePreemption[];
  series: TimelineSeries;
  rejected?: TimelineResult['rejected'];
  pendingAtEnd: (key: string) => { queue?: string };
}): TimelineResult {
  const waits: number[] = [];
  let attempts = 0;
  const counts = { scheduled: 0, completed: 0, pending: 0, preempted: 0 };
  for (const p of input.pods) {
    attempts += p.attempts;
    if (p.boundAt !== undefined) {
      p.waitedSeconds = round3(p.boundAt - p.arrivedAt);
      waits.push(p.waitedSeconds);
    }
    if (p.outcome === 'pending') {
      const q = input.pendingAtEnd(p.pod).queue;
      if (q) p.lastQueue = q as TimelinePod['lastQueue'];
    }
    if (p.outcome === 'scheduled') counts.scheduled++;
    else if (p.outcome === 'completed') counts.completed++;
    else if (p.outcome === 'pending') counts.pending++;
    else if (p.outcome === 'preempted') counts.preempted++;
  }
  waits.sort((a, b) => a - b);
  const histogram = {
    le: [...WAIT_BUCKETS, null],
    count: Array(WAIT_BUCKETS.length + 1).fill(0) as number[],
  };
  for (const w of waits) {
    const i = WAIT_BUCKETS.findIndex((b) => w <= b);
    histogram.count[i < 0 ? WAIT_BUCKETS.length : i]++;
  }
  return {
    compatibilityVersion: input.compatibilityVersion,
    start: input.start,
    endSeconds: input.endSeconds,
    summary: {
      pods: input.pods.length,
      scheduled: counts.scheduled,
      completed: counts.completed,
      pendingAtEnd: counts.pending,
      preempted: counts.preempted,
      attempts,
      timeToSchedule: {
        count: waits.length,
        p50: percentile(waits, 50),
        p90: percentile(waits, 90),
        p99: percentile(waits, 99),
        max: waits.length > 0 ? waits[waits.length - 1] : 0,
        histogram,
      },
    },
    pods: input.pods,
    preemptions: input.preemptions,
    series: input.series,
    ...(input.rejected && input.rejected.length > 0 ? { rejected: input.rejected } : {}),
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
