/**
 * The storage part of `schedlab simulate --scenario`: per step, what the storage controllers and
 * the scheduler recorded (`kubectl describe` events) and which claims and volumes changed phase,
 * then the cumulative data-loss report.
 */
import type { StorageReport } from '@schedlab/scenarios';
import { dataLossRows, type StorageDataLossReport } from '@schedlab/storage';
import { formatTable } from './table';

/** One block per step: its phase changes, then its events in `kubectl describe` columns. */
export function formatStorageTimeline(doc: StorageReport): string[] {
  const lines: string[] = ['Storage timeline'];
  if (doc.timeline.length === 0) lines.push('  no storage object changed');
  for (const step of doc.timeline) {
    lines.push(`${step.index === null ? '-' : step.index}  ${step.operation}`);
    for (const t of step.transitions) lines.push(`  ${t.object}: ${t.from} → ${t.to}`);
    for (const claim of step.deferred)
      lines.push(`  PersistentVolumeClaim/${claim}: Terminating until no scheduled pod uses it`);
    if (step.events.length > 0)
      lines.push(
        ...formatTable(
          ['OBJECT', 'TYPE', 'REASON', 'FROM', 'MESSAGE'],
          step.events.map((e) => [e.object, e.type, e.reason, e.from, e.message]),
          '  ',
        ),
      );
  }
  return lines;
}

const FATE_LABELS = {
  destroyed: 'destroyed',
  retained: 'retained (orphaned)',
  stranded: 'stranded',
  waiting: 'waiting on a pod',
} as const;

/** FATE, VOLUME, CLAIM, CLASS, CAPACITY, ZONE, POLICY, WHY: one row per volume or claim at risk. */
export function formatDataLoss(loss: StorageDataLossReport): string[] {
  const rows = dataLossRows(loss).map((r) => [
    FATE_LABELS[r.fate],
    r.volume,
    r.claim,
    r.storageClass,
    r.capacity,
    r.zone,
    r.policy,
    r.why,
  ]);
  if (rows.length === 0) return ['Data loss', '  none: no volume was destroyed, orphaned or stranded'];
  return [
    'Data loss',
    ...formatTable(['FATE', 'VOLUME', 'CLAIM', 'CLASS', 'CAPACITY', 'ZONE', 'POLICY', 'WHY'], rows),
  ];
}
