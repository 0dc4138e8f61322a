import { runPlugin } from '../../testing/harness';
import { tolerationToleratesTaint } from '@schedlab/k8s';
import { nodeTaintRows, toleratesTaintRows } from './__fixtures__/node-taint.table';
import { REMOVE_PODS_VIOLATING_NODE_TAINTS } from './node-taint';

describe('RemovePodsViolatingNodeTaints: upstream TestDeletePodsViolatingNodeTaints', () => {
  it.each(nodeTaintRows().map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const { evicted } = runPlugin({
      plugin: REMOVE_PODS_VIOLATING_NODE_TAINTS,
      args: {
        includePreferNoSchedule: row.includePreferNoSchedule ?? false,
        ...(row.excludedTaints ? { excludedTaints: row.excludedTaints } : {}),
        ...(row.includedTaints ? { includedTaints: row.includedTaints } : {}),
      },
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: {
        evictLocalStoragePods: row.evictLocalStoragePods ?? false,
        evictSystemCriticalPods: row.evictSystemCriticalPods ?? false,
        nodeFit: row.nodeFit ?? false,
      },
      limits: {
        maxNoOfPodsToEvictPerNode: row.maxPodsToEvictPerNode,
        maxNoOfPodsToEvictPerNamespace: row.maxNoOfPodsToEvictPerNamespace,
        maxNoOfPodsToEvictTotal: row.maxNoOfPodsToEvictTotal,
      },
    });
    expect(evicted).toHaveLength(row.expectedEvictedPodCount);
  });

  it('names the pod evicted and the taint it does not tolerate', () => {
    const [row] = nodeTaintRows();
    const { evictions } = runPlugin({
      plugin: REMOVE_PODS_VIOLATING_NODE_TAINTS,
      nodes: row.nodes,
      pods: row.pods,
    });
    expect(evictions).toEqual([
      expect.objectContaining({
        pod: 'default/p2',
        node: 'n1',
        strategy: REMOVE_PODS_VIOLATING_NODE_TAINTS,
        reason: REMOVE_PODS_VIOLATING_NODE_TAINTS,
        detail: 'pod does not tolerate taint testTaint1=test1:NoSchedule on node n1',
      }),
    ]);
  });

  it.each(toleratesTaintRows.map((row) => [row.description, row] as const))(
    'TestToleratesTaint: %s',
    (_d, row) => {
      expect(tolerationToleratesTaint(row.toleration, row.taint)).toBe(row.expectTolerated);
    },
  );
});
