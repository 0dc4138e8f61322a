// Admission rejections in the API server's words: `pods "<name>" is forbidden: <reason>`.
import { AdmissionError } from '@schedlab/k8s';

const RESOURCES: Record<string, string> = {
  Pod: 'pods',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  Service: 'services',
  ReplicationController: 'replicationcontrollers',
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  Deployment: 'deployments.apps',
  ReplicaSet: 'replicasets.apps',
  StatefulSet: 'statefulsets.apps',
  DaemonSet: 'daemonsets.apps',
  Job: 'jobs.batch',
  CronJob: 'cronjobs.batch',
};

/** `resource.group` for a kind, as admission errors and count/ quotas name it. */
export function groupResource(kind: string): string {
  return RESOURCES[kind] ?? `${kind.toLowerCase()}s`;
}

/** The name an admission error shows: metadata.name, else the generateName prefix. */
export function admissionName(meta: { name?: string; generateName?: string } | undefined): string {
  return meta?.name || meta?.generateName || '';
}

/** Reasons joined like utilerrors.NewAggregate: one as is, several as `[a, b]`. */
export function aggregate(reasons: readonly string[]): string {
  return reasons.length === 1 ? reasons[0] : `[${reasons.join(', ')}]`;
}

export class ForbiddenError extends AdmissionError {
  constructor(
    readonly kind: string,
    readonly objectName: string,
    readonly reason: string,
    readonly plugin: string,
  ) {
    super(`${groupResource(kind)} "${objectName}" is forbidden: ${reason}`);
    this.name = 'ForbiddenError';
  }
}
