/** Terse pod and node builders for unit tests (in the spirit of upstream's st.MakePod()). */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';

export interface PodSpecLite {
  name: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  nodeName?: string;
  /** One container per entry: resource name → quantity string. */
  requests?: Record<string, string>[];
  priority?: number;
  spec?: Pod['spec'];
}

export function makePod(p: PodSpecLite): Pod {
  const containers = (p.requests ?? [{}]).map((r, i) => ({
    name: `c${i}`,
    image: 'pause',
    resources: Object.keys(r).length ? { requests: r } : {},
  }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.namespace ?? 'default',
      uid: p.uid ?? `uid-${p.name}`,
      labels: p.labels,
    },
    spec: {
      containers,
      ...(p.nodeName ? { nodeName: p.nodeName } : {}),
      ...(p.priority !== undefined ? { priority: p.priority } : {}),
      ...p.spec,
    },
  };
}

export interface NodeSpecLite {
  name: string;
  labels?: Record<string, string>;
  allocatable?: Record<string, string>;
  taints?: NonNullable<Node['spec']>['taints'];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
}

export function makeNode(n: NodeSpecLite): Node {
  const allocatable = n.allocatable ?? { cpu: '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: n.name, labels: { 'kubernetes.io/hostname': n.name, ...n.labels } },
    spec: { taints: n.taints, unschedulable: n.unschedulable },
    status: { capacity: allocatable, allocatable, images: n.images },
  };
}

/**
 * A ResourceSlice of driver gpu.example.com on `node`, its own pool, with `devices` devices
 * gpu-0, gpu-1…: what the DRA specs put on a node to give it devices.
 */
export function makeGpuSlice(node: string, devices = 1): KubeObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `${node}-gpus` },
    spec: {
      nodeName: node,
      driver: 'gpu.example.com',
      pool: { name: node, resourceSliceCount: 1 },
      devices: Array.from({ length: devices }, (_, i) => ({ name: `gpu-${i}` })),
    },
  } as KubeObject;
}
