/** Small cluster builders for the storage tests. */
import type { KubeObject } from '@schedlab/k8s';

export const EBS = 'ebs.csi.aws.com';
export const EBS_ZONE_KEY = 'topology.ebs.csi.aws.com/zone';

export function node(name: string, zone: string, extraLabels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'topology.kubernetes.io/zone': zone,
        [EBS_ZONE_KEY]: zone,
        ...extraLabels,
      },
    },
    status: {
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
    },
  } as KubeObject;
}

export function csiNode(name: string): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name },
    spec: { drivers: [{ name: EBS, nodeID: name, topologyKeys: [EBS_ZONE_KEY] }] },
  } as KubeObject;
}

export function storageClass(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner: EBS,
    ...extra,
  } as KubeObject;
}

export function claim(
  name: string,
  size: string,
  extra: {
    storageClassName?: string;
    namespace?: string;
    volumeName?: string;
    accessModes?: string[];
    selector?: unknown;
  } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: extra.namespace ?? 'default', uid: `uid-${name}` },
    spec: {
      accessModes: extra.accessModes ?? ['ReadWriteOnce'],
      resources: { requests: { storage: size } },
      ...(extra.storageClassName !== undefined ? { storageClassName: extra.storageClassName } : {}),
      ...(extra.volumeName ? { volumeName: extra.volumeName } : {}),
      ...(extra.selector ? { selector: extra.selector } : {}),
    },
  } as KubeObject;
}

export function volume(name: string, size: string, extra: Record<string, unknown> = {}): KubeObject {
  const { spec, labels, ...rest } = extra as {
    spec?: Record<string, unknown>;
    labels?: Record<string, string>;
  };
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: {
      capacity: { storage: size },
      accessModes: ['ReadWriteOnce'],
      storageClassName: '',
      persistentVolumeReclaimPolicy: 'Retain',
      hostPath: { path: `/data/${name}` },
      ...spec,
    },
    status: { phase: 'Available' },
    ...rest,
  } as KubeObject;
}

export function podWithClaim(
  name: string,
  claimName: string,
  extraSpec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      containers: [{ name: 'c', image: 'app', resources: { requests: { cpu: '100m' } } }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
      ...extraSpec,
    },
  } as KubeObject;
}

export const twoZones = (): KubeObject[] => [
  node('node-a', 'a'),
  node('node-b', 'b'),
  csiNode('node-a'),
  csiNode('node-b'),
];
