/**
 * What a failed attempt tells the queue (upstream Diagnosis.UnschedulablePlugins/PendingPlugins,
 * filled by AddPluginStatus): the plugins whose rejection made the pod unschedulable. An attempt
 * that ended in an error has none, and the queue then counts an error.
 */
import type { AttemptRecord } from '../../schedule-one';
import { isRejected } from '../../framework/status';
import type { AttemptFailure } from './scheduling-queue';

export function attemptFailureOf(
  record: Pick<AttemptRecord, 'error' | 'preFilterRejection' | 'diagnosis' | 'narrowedBy'>,
): AttemptFailure {
  if (record.error) return {};
  const plugins = new Set<string>(record.narrowedBy ?? []);
  if (record.preFilterRejection?.plugin) plugins.add(record.preFilterRejection.plugin);
  for (const s of record.diagnosis.nodeToStatusMap.values()) {
    if (s.plugin && isRejected(s)) plugins.add(s.plugin);
  }
  return { unschedulablePlugins: plugins };
}
