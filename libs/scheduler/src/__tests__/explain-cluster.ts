/** A cluster whose pods exercise filters, scores, the random tie-break and preemption. */
import type { KubeObject } from '@schedlab/k8s';
import { makeNode, makePod } from '../testing/builders';

export function explainCluster(): KubeObject[] {
  const nodes = Array.from({ length: 120 }, (_, i) =>
    makeNode({
      name: `n${String(i).padStart(3, '0')}`,
      labels: { zone: `z${i % 3}` },
      allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
    }),
  );
  const low = Array.from({ length: 120 }, (_, i) =>
    makePod({
      name: `low-${i}`,
      nodeName: `n${String(i).padStart(3, '0')}`,
      requests: [{ cpu: '1500m' }],
      spec: {
        containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '1500m' } } }],
        priorityClassName: 'low',
      },
    }),
  );
  const pending = Array.from({ length: 60 }, (_, i) =>
    makePod({
      name: `p-${i}`,
      labels: { app: `a${i % 2}` },
      requests: [{ cpu: i % 10 === 0 ? '1800m' : '300m', memory: '256Mi' }],
      spec: {
        containers: [
          { name: 'c', image: 'pause', resources: { requests: { cpu: i % 10 === 0 ? '1800m' : '300m' } } },
        ],
        priorityClassName: i % 10 === 0 ? 'high' : 'low',
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: `a${i % 2}` } } },
            ],
          },
        },
      },
    }),
  );
  const classes = [
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 1 },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 100 },
  ];
  return [...classes, ...nodes, ...low, ...pending] as KubeObject[];
}
