import { runPlugin } from '../../testing/harness';
import { initPods, restartsRows } from './__fixtures__/too-many-restarts.table';
import { REMOVE_PODS_HAVING_TOO_MANY_RESTARTS } from './too-many-restarts';
import { buildTestNode } from '../../testing/builders';

describe('RemovePodsHavingTooManyRestarts: upstream TestRemovePodsHavingTooManyRestarts', () => {
  it.each(restartsRows().map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const { evicted } = runPlugin({
      plugin: REMOVE_PODS_HAVING_TOO_MANY_RESTARTS,
      args: row.args,
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: { nodeFit: row.nodeFit ?? false },
      limits: {
        maxNoOfPodsToEvictPerNode: row.maxPodsToEvictPerNode,
        maxNoOfPodsToEvictPerNamespace: row.maxNoOfPodsToEvictPerNamespace,
      },
    });
    expect(evicted).toHaveLength(row.expectedEvictedPodCount);
  });

  it('evicts the most restarted pods first', () => {
    const { evicted } = runPlugin({
      plugin: REMOVE_PODS_HAVING_TOO_MANY_RESTARTS,
      args: { podRestartThreshold: 1, includingInitContainers: true },
      nodes: [buildTestNode('node1', 2000, 3000, 10)],
      pods: initPods(),
      limits: { maxNoOfPodsToEvictPerNode: 3 },
    });
    // pod-8 (mirror), pod-7 (local storage) and pod-6 (DaemonSet) are protected, so pod-5 follows pod-9.
    expect(evicted).toEqual(['pod-9', 'pod-5', 'pod-4']);
  });
});
