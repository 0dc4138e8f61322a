import type { Change, StepRecord } from '@schedlab/scenarios';
import { formatTable } from './table';

/** One scenario step as the output documents show it. */
export interface StepSummary {
  /** The step's index in the scenario file; null for the scheduling of the dump's own pending pods. */
  index: number | null;
  operation: string;
  changes: Change[];
  /** A deschedule step: evictions, where each pod went, figures before and after, oscillation. */
  descheduling?: StepRecord['descheduling'];
}

export function stepSummaries(initial: Change[], steps: readonly StepRecord[]): StepSummary[] {
  const out: StepSummary[] = [];
  if (initial.length > 0) out.push({ index: null, operation: 'schedule pending pods', changes: initial });
  for (const s of steps)
    out.push({
      index: s.index,
      operation: s.operation,
      changes: s.changes,
      ...(s.descheduling ? { descheduling: s.descheduling } : {}),
    });
  return out;
}

const LISTED_PER_TYPE = 3;

/** FitErrors are long and the final placements print them; the step table only names the pods. */
const DETAIL_IN_PLACEMENTS: ReadonlySet<string> = new Set(['podUnschedulable']);

function describeChange(c: Change): string {
  if (!c.detail || DETAIL_IN_PLACEMENTS.has(c.type)) return c.object;
  return c.type === 'podScheduled' ? `${c.object} → ${c.detail}` : `${c.object} (${c.detail})`;
}

/** Changes of one type: all of them when few, else the count and the first few. */
function describeGroup(changes: readonly Change[]): string {
  const shown = changes.slice(0, LISTED_PER_TYPE).map(describeChange);
  const more = changes.length - shown.length;
  return `${changes.length}: ${shown.join(', ')}${more > 0 ? `, … ${more} more` : ''}`;
}

/** STEP, OPERATION, CHANGE, WHAT: one row per change type of each step, in order of first occurrence. */
export function formatStepTable(steps: readonly StepSummary[]): string[] {
  const rows: string[][] = [];
  for (const step of steps) {
    const byType = new Map<string, Change[]>();
    for (const c of step.changes) {
      // A pod retried in several settle rounds is listed once, with its latest outcome.
      const group = (byType.get(c.type) ?? []).filter(
        (o) => o.object !== c.object || (o.detail !== c.detail && c.type !== 'podUnschedulable'),
      );
      byType.set(c.type, [...group, c]);
    }
    const index = step.index === null ? '-' : String(step.index);
    if (byType.size === 0) rows.push([index, step.operation, '', 'nothing changed']);
    let first = true;
    for (const [type, changes] of byType) {
      rows.push([first ? index : '', first ? step.operation : '', type, describeGroup(changes)]);
      first = false;
    }
  }
  return formatTable(['STEP', 'OPERATION', 'CHANGE', 'WHAT'], rows);
}
