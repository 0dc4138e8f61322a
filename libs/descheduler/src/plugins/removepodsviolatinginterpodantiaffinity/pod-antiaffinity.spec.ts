import { runPlugin } from '../../testing/harness';
import { antiAffinityRows } from './__fixtures__/pod-antiaffinity.table';
import { REMOVE_PODS_VIOLATING_INTER_POD_ANTI_AFFINITY } from './pod-antiaffinity';

describe('RemovePodsViolatingInterPodAntiAffinity: upstream TestPodAntiAffinity', () => {
  it.each(antiAffinityRows().map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const { evicted } = runPlugin({
      plugin: REMOVE_PODS_VIOLATING_INTER_POD_ANTI_AFFINITY,
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: { nodeFit: row.nodeFit ?? false },
      limits: {
        maxNoOfPodsToEvictPerNode: row.maxPodsToEvictPerNode,
        maxNoOfPodsToEvictPerNamespace: row.maxNoOfPodsToEvictPerNamespace,
        maxNoOfPodsToEvictTotal: row.maxNoOfPodsToEvictTotal,
      },
    });
    expect(evicted).toHaveLength(row.expectedEvictedPodCount);
    if (row.expectedEvicted) expect(evicted).toEqual(row.expectedEvicted);
  });
});
