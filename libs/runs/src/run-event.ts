/**
 * The `data` of a run's webhook event: a summary and links, never the result itself. A run's
 * stored summary holds per-node utilization (about 1 MB at 2,000 nodes) and sampled pod lists;
 * a receiver gets the run's identity, timings, counts and headline figures, and follows the
 * links for the rest (docs/webhooks.md).
 */

/** Run types whose report page exists (GET /v1/runs/{id}/report answers 409 for the others). */
const REPORTED_RUN_TYPES = new Set(['simulate', 'deschedule', 'timeline']);

/** Unschedulable reasons a payload names (largest first), and the longest text it carries. */
const TOP_REASONS = 3;
const MAX_TEXT = 500;

export interface RunEventRun {
  id: string;
  type: string;
  parentId: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface RunEventOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  error?: string | null;
  /** The run's stored summary (EngineOutput.summary), absent when the run produced none. */
  summary?: Record<string, unknown> | null;
  /** A sweep's parent: links to the sweep instead of a run. */
  sweep?: boolean;
}

export function runLinks(publicApiUrl: string, runId: string, type: string) {
  return {
    self: `${publicApiUrl}/v1/runs/${runId}`,
    placements: `${publicApiUrl}/v1/runs/${runId}/placements`,
    ...(REPORTED_RUN_TYPES.has(type) ? { report: `${publicApiUrl}/v1/runs/${runId}/report` } : {}),
  };
}

export function sweepLinks(publicApiUrl: string, sweepId: string) {
  return { self: `${publicApiUrl}/v1/sweeps/${sweepId}` };
}

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

const ratio = (use: unknown) => {
  const value = (use as { ratio?: unknown } | undefined)?.ratio;
  return typeof value === 'number' ? value : null;
};

/**
 * The figures of a summary that stay small whatever the cluster's size: scalars as they are (the
 * counts: pods, scheduled, unschedulable, preempting, preempted, …; text clipped), utilization as
 * the cluster's ratios and spread, the largest unschedulable reasons with their counts, and other
 * lists by their length (`<name>Count`). Per-node and per-zone maps are left out.
 */
export function headlineOf(summary: Record<string, unknown>): Record<string, unknown> {
  const headline: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(summary)) {
    if (key === 'utilization' && value && typeof value === 'object') {
      const u = value as { cluster?: Record<string, unknown>; stdDev?: Record<string, unknown> };
      headline.utilization = {
        cpu: ratio(u.cluster?.cpu),
        memory: ratio(u.cluster?.memory),
        pods: ratio(u.cluster?.pods),
        ...(u.stdDev ? { stdDev: u.stdDev } : {}),
      };
    } else if (key === 'unschedulableReasons' && Array.isArray(value)) {
      headline.topUnschedulableReasons = (value as { reason?: unknown; count?: unknown }[])
        .map((g) => ({ reason: clip(String(g.reason ?? '')), count: Number(g.count ?? 0) }))
        .sort((a, b) => b.count - a.count)
        .slice(0, TOP_REASONS);
    } else if (Array.isArray(value)) {
      headline[`${key}Count`] = value.length;
    } else if (typeof value === 'string') {
      headline[key] = clip(value);
    } else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
      headline[key] = value;
    }
  }
  return headline;
}

/** The event's `data` for a run that just became final (or a sweep whose children all did). */
export function runEventData(
  run: RunEventRun,
  outcome: RunEventOutcome,
  publicApiUrl: string,
): Record<string, unknown> {
  const ms = (from: Date | null, to: Date | null) =>
    from && to ? Math.max(0, to.getTime() - from.getTime()) : null;
  return {
    runId: run.id,
    type: run.type,
    status: outcome.status,
    ...(run.parentId ? { sweepId: run.parentId } : {}),
    timings: {
      createdAt: run.createdAt.toISOString(),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      queuedMs: ms(run.createdAt, run.startedAt),
      durationMs: ms(run.startedAt, run.finishedAt),
    },
    summary: outcome.summary ? headlineOf(outcome.summary) : null,
    error: outcome.error ? clip(outcome.error) : null,
    links: outcome.sweep ? sweepLinks(publicApiUrl, run.id) : runLinks(publicApiUrl, run.id, run.type),
  };
}
