import type { KubeObject } from '@schedlab/k8s';
import * as t from '../testing/builders';
import { ClusterView } from './cluster-view';
import { hasLocalStorage, isCriticalPriorityPod, isDaemonSetPod, isMirrorPod, isStaticPod } from './pods';
import { LIMIT_MESSAGES, PodEvictor } from './pod-evictor';
import type { EvictionRefusal } from './types';

/**
 * Upstream's TestNewPodEvictor rows (descheduler v0.36.0, pkg/descheduler/evictions/
 * evictions_test.go). A what-if is always a dry run, so the dryRun rows are the same as the others;
 * the two "eviction error" rows inject an API server error, which a snapshot has no place for.
 */
const rows: {
  description: string;
  total: number;
  node: number;
  namespace: number;
  expectedNodeEvictions: number;
  expectedTotalEvictions: number;
  refusal?: EvictionRefusal;
}[] = [
  {
    description: 'one eviction expected',
    total: 1,
    node: 1,
    namespace: 1,
    expectedNodeEvictions: 1,
    expectedTotalEvictions: 1,
  },
  {
    description: 'eviction limit exceeded on total',
    total: 0,
    node: 1,
    namespace: 1,
    expectedNodeEvictions: 0,
    expectedTotalEvictions: 0,
    refusal: 'total-limit',
  },
  {
    description: 'eviction limit exceeded on node',
    total: 1,
    node: 0,
    namespace: 1,
    expectedNodeEvictions: 0,
    expectedTotalEvictions: 0,
    refusal: 'node-limit',
  },
  {
    description: 'eviction limit exceeded on namespace',
    total: 1,
    node: 1,
    namespace: 0,
    expectedNodeEvictions: 0,
    expectedTotalEvictions: 0,
    refusal: 'namespace-limit',
  },
  {
    description: 'eviction with dryRun',
    total: 1,
    node: 1,
    namespace: 1,
    expectedNodeEvictions: 1,
    expectedTotalEvictions: 1,
  },
];

describe('PodEvictor: upstream TestNewPodEvictor', () => {
  it.each(rows.map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const pod = t.buildTestPod('pod', 400, 0, 'node');
    const objects = [pod] as unknown as KubeObject[];
    const evictor = new PodEvictor(new ClusterView(objects), objects, {
      maxNoOfPodsToEvictTotal: row.total,
      maxNoOfPodsToEvictPerNode: row.node,
      maxNoOfPodsToEvictPerNamespace: row.namespace,
    });
    const refusal = evictor.evict(pod, { strategy: '', reason: '' }, 'p', 'deschedule');
    expect(refusal).toBe(row.refusal);
    expect(evictor.evictions.filter((e) => e.node === 'node')).toHaveLength(row.expectedNodeEvictions);
    expect(evictor.total).toBe(row.expectedTotalEvictions);
    if (row.refusal && row.refusal in LIMIT_MESSAGES)
      expect(evictor.refused[0].message).toBe(LIMIT_MESSAGES[row.refusal as keyof typeof LIMIT_MESSAGES]);
    // With neither a reason nor a strategy, the event's reason is NotSet, as upstream's.
    if (!row.refusal) expect(evictor.evictions[0].reason).toBe('NotSet');
  });
});

describe('pod kinds: upstream TestPodTypes', () => {
  it('tells DaemonSet, local-storage and mirror pods from a normal one', () => {
    const p1 = t.buildTestPod('p1', 400, 0, 'node1', t.setRSOwnerRef);
    const p2 = t.buildTestPod('p2', 400, 0, 'node1', t.setDSOwnerRef);
    const p3 = t.buildTestPod(
      'p3',
      400,
      0,
      'node1',
      (p) => (t.setNormalOwnerRef(p), t.setHostPathEmptyDirVolumeSource(p)),
    );
    const p4 = t.buildTestPod('p4', 400, 0, 'node1', t.setMirrorPodAnnotation);
    expect(isMirrorPod(p4)).toBe(true);
    expect(hasLocalStorage(p3)).toBe(true);
    expect(isDaemonSetPod(p2)).toBe(true);
    expect([
      isDaemonSetPod(p1),
      hasLocalStorage(p1),
      isCriticalPriorityPod(p1),
      isMirrorPod(p1),
      isStaticPod(p1),
    ]).toEqual([false, false, false, false, false]);
  });
});
