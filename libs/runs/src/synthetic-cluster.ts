/**
 * A generated cluster for tests and benchmarks: `nodes` nodes over three zones and `pods` pending
 * pods with requests, so the engine has real work whose amount grows with the size (no sleeps).
 */
import { gzipSync } from 'node:zlib';
import { LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE } from '@schedlab/k8s';

export function syntheticCluster(size: { nodes: number; pods: number; podCpuMillis?: number }): {
  items: object[];
} {
  const items: object[] = [];
  for (let n = 0; n < size.nodes; n++) {
    items.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: `node-${n}`,
        labels: { [LABEL_HOSTNAME]: `node-${n}`, [LABEL_TOPOLOGY_ZONE]: `zone-${n % 3}` },
      },
      status: {
        allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
        capacity: { cpu: '8', memory: '32Gi', pods: '110' },
      },
    });
  }
  for (let p = 0; p < size.pods; p++) {
    items.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `pod-${p}`, namespace: 'default', labels: { app: `app-${p % 10}` } },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            resources: { requests: { cpu: `${size.podCpuMillis ?? 100}m`, memory: '128Mi' } },
          },
        ],
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: LABEL_TOPOLOGY_ZONE,
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: { app: `app-${p % 10}` } },
          },
        ],
      },
    });
  }
  return { items };
}

/** The cluster as a snapshot row stores it: gzip of the canonical JSON. */
export function syntheticSnapshotContent(size: {
  nodes: number;
  pods: number;
  podCpuMillis?: number;
}): Buffer {
  return gzipSync(JSON.stringify(syntheticCluster(size)));
}
