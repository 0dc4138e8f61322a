/**
 * The report of a timeline run (docs/timeline.md), shared by the CLI and the service: the pending
 * series by queue and the waiting-time histogram, with the run's counts as text.
 */
import type { TimelineResult } from '@schedlab/analysis';
import type { TimelineReportInput } from './report-input';

export function timelineReportOf(
  result: Pick<TimelineResult, 'summary' | 'series' | 'endSeconds' | 'compatibilityVersion' | 'preemptions'>,
  title: string,
): TimelineReportInput {
  const s = result.summary;
  const t = s.timeToSchedule;
  return {
    title,
    runs: [],
    timeline: {
      t: result.series.t,
      active: result.series.active,
      backoff: result.series.backoff,
      unschedulable: result.series.unschedulable,
      gated: result.series.gated,
      histogram: t.histogram,
      summary: [
        `${s.pods} pods over ${result.endSeconds}s: ${s.scheduled} running, ${s.completed} completed, ${s.preempted} preempted, ${s.pendingAtEnd} pending at the end; ${s.attempts} attempts, ${result.preemptions.length} preemptions`,
        `Time to schedule (${t.count} bound): p50 ${t.p50}s, p90 ${t.p90}s, p99 ${t.p99}s, max ${t.max}s`,
        `kube-scheduler ${result.compatibilityVersion} behaviour`,
      ],
    },
  };
}
