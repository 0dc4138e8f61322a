// Deployment → its first ReplicaSet <deployment>-<pod-template-hash> → that ReplicaSet's pods.
import type { Deployment, Pod, ReplicaSet } from '@schedlab/k8s';
import type { RandomInt } from '@schedlab/k8s';
import {
  WorkloadError,
  controllerRef,
  describe,
  nameOf,
  namespaceOf,
  replicasOf,
  requireTemplate,
  withUid,
} from './common';
import { podTemplateHash } from './hash';
import { replicaSetPods } from './replicaset';

export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';

/** An int-or-percent of `total`, rounding up (maxSurge) as intstr.GetScaledValueFromIntOrPercent. */
function scaled(
  value: number | string | undefined,
  total: number,
  roundUp: boolean,
  where: string,
  field: string,
): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m)
    throw new WorkloadError(
      where,
      field,
      `Invalid value: "${value}": must be an integer or percentage (e.g '5%')`,
    );
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** The ReplicaSet the deployment controller creates for a new Deployment. */
export function deploymentReplicaSet(deployment: Deployment): ReplicaSet {
  const owner = withUid({ ...deployment, kind: 'Deployment' as const });
  const where = describe(owner);
  const template = requireTemplate(owner, deployment.spec?.template);
  const replicas = replicasOf(owner, deployment.spec?.replicas);
  const hash = podTemplateHash(template, deployment.status?.collisionCount);
  const name = `${nameOf(owner)}-${hash}`;
  const strategy = deployment.spec?.strategy;
  const surge =
    strategy?.type === 'Recreate'
      ? 0
      : scaled(
          strategy?.rollingUpdate?.maxSurge ?? '25%',
          replicas,
          true,
          where,
          'spec.strategy.rollingUpdate.maxSurge',
        );
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  const selector = structuredClone(deployment.spec?.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(deployment.metadata?.annotations ?? {})) {
    // The controller copies the deployment's annotations except kubectl's last-applied record.
    if (k !== 'kubectl.kubernetes.io/last-applied-configuration') annotations[k] = v;
  }
  annotations[REVISION_ANNOTATION] = '1';
  annotations[DESIRED_REPLICAS_ANNOTATION] = String(replicas);
  annotations[MAX_REPLICAS_ANNOTATION] = String(replicas + surge);
  const namespace = namespaceOf(owner);
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace, labels, annotations, ownerReferences: [controllerRef(owner, 'apps/v1')] },
    spec: {
      replicas,
      minReadySeconds: deployment.spec?.minReadySeconds,
      selector,
      template: {
        ...structuredClone(template),
        metadata: { ...structuredClone(template.metadata ?? {}), labels },
      },
    },
  };
}

export interface DeploymentExpansion {
  replicaSet: ReplicaSet;
  pods: Pod[];
}

export function expandDeployment(deployment: Deployment, random: RandomInt): DeploymentExpansion {
  const replicaSet = withUid(deploymentReplicaSet(deployment));
  return { replicaSet, pods: replicaSetPods(replicaSet, random) };
}
