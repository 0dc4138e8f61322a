/**
 * What happens to pods an operation deletes: a controller replaces each pod it owns (a fresh name
 * for ReplicaSet/ReplicationController/Job/DaemonSet pods, the same name for StatefulSet pods,
 * the same node for DaemonSet pods); bare pods and mirror pods are simply gone.
 */
import { podKeyOf } from '@schedlab/k8s';
import type { Pod } from '@schedlab/k8s';
import type { RandomInt } from '@schedlab/k8s';
import { deterministicUid, generateName } from '../naming';
import { isMirrorPod } from './static-pods';

export interface Replacement {
  deleted: Pod;
  replacement: Pod;
}

export interface RecreateResult {
  recreated: Replacement[];
  /** `namespace/name` of deleted pods nobody recreates. */
  gone: string[];
}

const RECREATING_KINDS = new Set(['ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job']);

function key(p: Pod): string {
  return podKeyOf(p);
}

/**
 * `liveNodes`: when given, a DaemonSet pod pinned to a node no longer in it is not recreated (the
 * DaemonSet controller only runs pods on existing nodes).
 */
export function recreateDeletedPods(
  deleted: readonly Pod[],
  random: RandomInt,
  liveNodes?: ReadonlySet<string>,
): RecreateResult {
  const out: RecreateResult = { recreated: [], gone: [] };
  for (const pod of deleted) {
    const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (!owner || !RECREATING_KINDS.has(owner.kind) || isMirrorPod(pod)) {
      out.gone.push(key(pod));
      continue;
    }
    if (owner.kind === 'DaemonSet' && liveNodes) {
      const pinned =
        pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
          ?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0];
      if (pinned !== undefined && !liveNodes.has(pinned)) {
        out.gone.push(key(pod));
        continue;
      }
    }
    const fresh = structuredClone(pod) as Pod & { metadata: Record<string, unknown> & Pod['metadata'] };
    delete (fresh as { status?: unknown }).status;
    fresh.spec = { ...fresh.spec!, nodeName: undefined };
    delete fresh.spec.nodeName;
    const meta = fresh.metadata as Record<string, unknown>;
    delete meta.creationTimestamp;
    delete meta.resourceVersion;
    if (owner.kind !== 'StatefulSet') {
      const prefix = pod.metadata?.generateName ?? `${owner.name}-`;
      fresh.metadata!.generateName = prefix;
      fresh.metadata!.name = generateName(prefix, random);
    }
    meta.uid = deterministicUid(
      'Pod',
      fresh.metadata?.namespace,
      `${fresh.metadata!.name}#${out.recreated.length}`,
    );
    out.recreated.push({ deleted: pod, replacement: fresh });
  }
  return out;
}
