/**
 * CronJob: each sync creates at most one Job, for the most recent schedule time missed since the
 * last one (as upstream's controller does), named <cronjob>-<scheduled time in minutes since epoch>.
 */
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import { WorkloadError, controllerRef, describe, nameOf, namespaceOf, withUid } from './common';
import { CronScheduleError, parseCronSchedule, scheduleTimes } from './cron';

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export interface CronJobState {
  /** The last scheduled time a Job was created for (initially the CronJob's creation time). */
  lastScheduleTime: Date;
  /** Jobs created and still running (jobs never finish in a scheduling simulation). */
  active: Job[];
}

export interface CronJobSync {
  created?: Job;
  /** Jobs replaced under concurrencyPolicy Replace. */
  deleted: Job[];
  /** Why no Job was created although a schedule time was due. */
  skipped?: string;
  state: CronJobState;
}

function jobFor(cj: CronJob, scheduled: Date): Job {
  const owner = withUid({ ...cj, kind: 'CronJob' });
  const template = cj.spec!.jobTemplate;
  const name = `${nameOf(owner)}-${Math.floor(scheduled.getTime() / 60_000)}`;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: namespaceOf(owner),
      labels: { ...(template.metadata?.labels ?? {}) },
      annotations: {
        ...(template.metadata?.annotations ?? {}),
        [SCHEDULED_TIMESTAMP_ANNOTATION]: scheduled.toISOString().replace('.000Z', 'Z'),
      },
      ownerReferences: [controllerRef(owner, 'batch/v1')],
    },
    spec: structuredClone(template.spec!),
  };
}

export function initialCronJobState(cj: CronJob, fallbackStart: Date): CronJobState {
  const created = cj.status?.lastScheduleTime ?? cj.metadata?.creationTimestamp;
  return { lastScheduleTime: created ? new Date(created) : fallbackStart, active: [] };
}

/** One controller sync at time `now`. */
export function syncCronJob(cj: CronJob, state: CronJobState, now: Date): CronJobSync {
  const where = describe({ ...cj, kind: 'CronJob' });
  const tz = cj.spec?.timeZone;
  if (tz && tz !== 'UTC' && tz !== 'Etc/UTC')
    throw new WorkloadError(where, 'spec.timeZone', `Unsupported value: "${tz}": only UTC is modelled`);
  let schedule;
  try {
    schedule = parseCronSchedule(cj.spec?.schedule ?? '');
  } catch (e) {
    if (e instanceof CronScheduleError) throw new WorkloadError(where, 'spec.schedule', e.message);
    throw e;
  }
  const out: CronJobSync = { deleted: [], state: { ...state, active: [...state.active] } };
  if (cj.spec?.suspend) return out;
  const due = scheduleTimes(schedule, state.lastScheduleTime, now, Number.MAX_SAFE_INTEGER);
  const latest = due[due.length - 1];
  if (!latest) return out;
  out.state.lastScheduleTime = latest;
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && latest.getTime() + deadline * 1000 < now.getTime()) {
    out.skipped = `missed starting window for ${latest.toISOString()}`;
    return out;
  }
  const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && out.state.active.length > 0) {
    out.skipped = 'concurrencyPolicy Forbid: a previous Job is still active';
    return out;
  }
  if (policy === 'Replace') {
    out.deleted = out.state.active;
    out.state.active = [];
  }
  out.created = jobFor(cj, latest);
  out.state.active.push(out.created);
  return out;
}
