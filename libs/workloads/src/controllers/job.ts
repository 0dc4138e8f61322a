// Job: the active pods the job controller starts (min(parallelism, remaining completions)).
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from '@schedlab/k8s';
import type { RandomInt } from '@schedlab/k8s';
import {
  WorkloadError,
  controllerRef,
  describe,
  nameOf,
  namespaceOf,
  podFromTemplate,
  requireTemplate,
  uidOf,
  withUid,
} from './common';

export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_LABEL = 'batch.kubernetes.io/job-completion-index';

function nonNegative(job: Job, value: number | undefined, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < 0) {
    throw new WorkloadError(
      describe({ ...job, kind: 'Job' }),
      field,
      `Invalid value: ${value}: must be greater than or equal to 0`,
    );
  }
  return value;
}

/** Labels the API server's Job defaulting puts on the template (and selects on). */
export function jobSelectorLabels(job: Job): Record<string, string> {
  const owner = { ...job, kind: 'Job' };
  const name = nameOf(owner);
  const uid = uidOf(owner);
  return {
    [CONTROLLER_UID_LABEL]: uid,
    [JOB_NAME_LABEL]: name,
    [LEGACY_CONTROLLER_UID_LABEL]: uid,
    [LEGACY_JOB_NAME_LABEL]: name,
  };
}

/** How many pods run at once: parallelism (default 1) capped by completions not yet succeeded. */
export function activePodCount(job: Job): number {
  if (job.spec?.suspend) return 0;
  const parallelism = nonNegative(job, job.spec?.parallelism, 'spec.parallelism') ?? 1;
  const completions = nonNegative(job, job.spec?.completions, 'spec.completions');
  const succeeded = job.status?.succeeded ?? 0;
  if (completions === undefined) return succeeded > 0 ? 0 : parallelism;
  return Math.max(0, Math.min(parallelism, completions - succeeded));
}

export function jobPods(job: Job, random: RandomInt): Pod[] {
  const owner = withUid({ ...job, kind: 'Job' as const });
  const template = requireTemplate(owner, job.spec?.template);
  const name = nameOf(owner);
  const ref = controllerRef(owner, 'batch/v1');
  const labels = jobSelectorLabels(owner);
  const indexed = job.spec?.completionMode === 'Indexed';
  if (indexed && job.spec?.completions === undefined) {
    throw new WorkloadError(
      describe(owner),
      'spec.completions',
      'Required value: when completion mode is Indexed',
    );
  }
  const count = activePodCount(job);
  return Array.from({ length: count }, (_, index) => {
    if (!indexed)
      return podFromTemplate(template, {
        namespace: namespaceOf(owner),
        owner: ref,
        extraLabels: labels,
        random,
      });
    const pod = podFromTemplate(template, {
      namespace: namespaceOf(owner),
      owner: ref,
      generateNamePrefix: `${name}-${index}-`,
      extraLabels: { ...labels, [COMPLETION_INDEX_LABEL]: String(index) },
      extraAnnotations: { [COMPLETION_INDEX_ANNOTATION]: String(index) },
      random,
    });
    // Indexed pods get a stable hostname <job>-<index>.
    pod.spec!.hostname = `${name}-${index}`;
    return pod;
  });
}
