// ReplicaSet and ReplicationController: `replicas` pods named <owner>-<5 random characters>.
import type { Pod, ReplicaSet, ReplicationController } from '@schedlab/k8s';
import type { RandomInt } from '@schedlab/k8s';
import { controllerRef, namespaceOf, podFromTemplate, replicasOf, requireTemplate, withUid } from './common';

export function replicaSetPods(rs: ReplicaSet, random: RandomInt): Pod[] {
  const owner = withUid({ ...rs, kind: 'ReplicaSet' as const });
  const template = requireTemplate(owner, rs.spec?.template);
  const n = replicasOf(owner, rs.spec?.replicas);
  const ref = controllerRef(owner, 'apps/v1');
  return Array.from({ length: n }, () =>
    podFromTemplate(template, { namespace: namespaceOf(owner), owner: ref, random }),
  );
}

/** API defaulting of a ReplicationController: a missing selector or labels come from the template's labels. */
export function defaultReplicationController(rc: ReplicationController): ReplicationController {
  const out = structuredClone(rc);
  const templateLabels = out.spec?.template?.metadata?.labels;
  if (out.spec && templateLabels) {
    if (!out.spec.selector || Object.keys(out.spec.selector).length === 0)
      out.spec.selector = { ...templateLabels };
    out.metadata ??= {};
    if (!out.metadata.labels || Object.keys(out.metadata.labels).length === 0)
      out.metadata.labels = { ...templateLabels };
  }
  return out;
}

export function replicationControllerPods(rc: ReplicationController, random: RandomInt): Pod[] {
  const owner = withUid({ ...defaultReplicationController(rc), kind: 'ReplicationController' as const });
  const template = requireTemplate(owner, owner.spec?.template);
  const n = replicasOf(owner, owner.spec?.replicas);
  const ref = controllerRef(owner, 'v1');
  return Array.from({ length: n }, () =>
    podFromTemplate(template, { namespace: namespaceOf(owner), owner: ref, random }),
  );
}
