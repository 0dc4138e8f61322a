// Small cluster builders for the scenario tests.
import type { KubeObject } from '@schedlab/k8s';

export function node(
  name: string,
  opts: { cpu?: string; memory?: string; pods?: string; zone?: string; labels?: Record<string, string> } = {},
): KubeObject {
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name, ...opts.labels };
  if (opts.zone) labels['topology.kubernetes.io/zone'] = opts.zone;
  const alloc = { cpu: opts.cpu ?? '4', memory: opts.memory ?? '8Gi', pods: opts.pods ?? '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    status: { capacity: alloc, allocatable: alloc },
  };
}

export function pod(
  name: string,
  opts: {
    cpu?: string;
    memory?: string;
    node?: string;
    labels?: Record<string, string>;
    owner?: { kind: string; name: string };
    tolerations?: unknown[];
    namespace?: string;
  } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: opts.namespace ?? 'default',
      labels: opts.labels ?? {},
      ...(opts.owner
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: opts.owner.kind,
                name: opts.owner.name,
                uid: `uid-${opts.owner.name}`,
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: {
      ...(opts.node ? { nodeName: opts.node } : {}),
      containers: [
        {
          name: 'c',
          image: 'app',
          resources: { requests: { cpu: opts.cpu ?? '1', memory: opts.memory ?? '1Gi' } },
        },
      ],
      ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
    },
  };
}

export function replicaSet(
  name: string,
  replicas: number,
  labels: Record<string, string>,
  cpu = '1',
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'c', image: 'app', resources: { requests: { cpu, memory: '1Gi' } } }] },
      },
    },
  };
}

export function pdb(
  name: string,
  labels: Record<string, string>,
  spec: { minAvailable?: number | string; maxUnavailable?: number | string },
): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: labels }, ...spec },
  };
}
