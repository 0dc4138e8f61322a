import { runPlugin } from '../../testing/harness';
import {
  nodeAffinityRows,
  addPodsToNode,
  nodeWithLabels,
  nodeWithoutLabels,
} from './__fixtures__/node-affinity.table';
import { REMOVE_PODS_VIOLATING_NODE_AFFINITY } from './node-affinity';

describe('RemovePodsViolatingNodeAffinity: upstream TestRemovePodsViolatingNodeAffinity', () => {
  it.each(nodeAffinityRows().map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const { evicted } = runPlugin({
      plugin: REMOVE_PODS_VIOLATING_NODE_AFFINITY,
      args: { nodeAffinityType: row.nodeAffinityType },
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: { nodeFit: row.nodefit ?? false },
      limits: {
        maxNoOfPodsToEvictPerNode: row.maxPodsToEvictPerNode,
        maxNoOfPodsToEvictPerNamespace: row.maxNoOfPodsToEvictPerNamespace,
        maxNoOfPodsToEvictTotal: row.maxNoOfPodsToEvictTotal,
      },
    });
    expect(evicted).toHaveLength(row.expectedEvictedPodCount);
    // Only the pod with node affinity can ever be the one evicted.
    for (const name of evicted) expect(name).toBe('podWithNodeAffinity');
  });

  it('asks the injected podFitsNode, so the engine decides where the pod could go', () => {
    const run = (fits: boolean) =>
      runPlugin({
        plugin: REMOVE_PODS_VIOLATING_NODE_AFFINITY,
        args: { nodeAffinityType: ['requiredDuringSchedulingIgnoredDuringExecution'] },
        nodes: [nodeWithoutLabels(), nodeWithLabels()],
        pods: addPodsToNode('nodeWithoutLabels', false, 'requiredDuringSchedulingIgnoredDuringExecution'),
        podFitsNode: () => fits,
      }).evicted;
    expect(run(true)).toEqual(['podWithNodeAffinity']);
    expect(run(false)).toEqual([]);
  });
});
