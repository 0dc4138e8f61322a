/**
 * Static pods: the kubelet runs them from its manifest directory and publishes a mirror pod
 * <name>-<node>, bound to the node and owned by it. They are never scheduled, but count on the node.
 */
import type { Node, Pod } from '@schedlab/k8s';
import { namespaceOf, canonicalJson } from '@schedlab/k8s';
import { deterministicUid, fnv32a } from '../naming';

export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash';
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';

export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata?.annotations?.[MIRROR_ANNOTATION] !== undefined;
}

export function mirrorPod(staticPod: Pod, node: Node): Pod {
  const nodeName = node.metadata?.name ?? '';
  const base = staticPod.metadata?.name;
  if (!base) throw new Error('static Pod: metadata.name: Required value');
  const name = `${base}-${nodeName}`;
  const namespace = namespaceOf(staticPod);
  const hash = fnv32a(canonicalJson(staticPod.spec ?? {})).toString(16);
  const out = structuredClone(staticPod);
  out.apiVersion = 'v1';
  out.kind = 'Pod';
  out.metadata = {
    ...out.metadata,
    name,
    namespace,
    uid: deterministicUid('Pod', namespace, name),
    annotations: {
      ...(out.metadata?.annotations ?? {}),
      [CONFIG_HASH_ANNOTATION]: hash,
      [MIRROR_ANNOTATION]: hash,
      [CONFIG_SOURCE_ANNOTATION]: 'file',
    },
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'Node',
        name: nodeName,
        uid: node.metadata?.uid ?? deterministicUid('Node', undefined, nodeName),
        controller: true,
      },
    ],
  };
  out.spec = { ...(out.spec ?? { containers: [] }), nodeName };
  return out;
}
