/**
 * upstream's removeduplicates_test.go tables (descheduler v0.36.0), each row's nodes and pods
 * dumped as JSON from the Go table itself, run through a real DefaultEvictor and PodEvictor.
 */
import type { Node, Pod } from '@schedlab/k8s';
import { runPlugin } from '../../testing/harness';
import findDuplicatePods from './__fixtures__/find-duplicate-pods.json';
import uniformly from './__fixtures__/remove-duplicates-uniformly.json';
import validation from './__fixtures__/validation.json';
import { REMOVE_DUPLICATES, removeDuplicatesArgsSchema } from './remove-duplicates';

interface Row {
  description: string;
  nodes: Node[];
  pods: Pod[];
  expectedEvictedPodCount: number;
  excludeOwnerKinds?: string[];
  nodefit?: boolean;
}

/**
 * Upstream counts eviction calls and its fake clientset lets a pod be evicted twice; a pod with
 * two owners is a duplicate in both groups, so these rows count 4 calls for 2 pods. Here a pod is
 * evicted once: the pods upstream evicts, counted once each.
 */
const DISTINCT_PODS: Record<string, number> = {
  'Evict pods uniformly with two replica sets': 2,
};

function run(row: Row) {
  return runPlugin({
    plugin: REMOVE_DUPLICATES,
    args: row.excludeOwnerKinds ? { excludeOwnerKinds: row.excludeOwnerKinds } : {},
    nodes: row.nodes,
    pods: row.pods,
    evictorArgs: { nodeFit: row.nodefit ?? false },
  });
}

describe('RemoveDuplicates: upstream TestFindDuplicatePods', () => {
  it.each((findDuplicatePods as unknown as Row[]).map((row) => [row.description, row] as const))(
    '%s',
    (_d, row) => {
      expect(run(row).evicted).toHaveLength(row.expectedEvictedPodCount);
    },
  );
});

describe('RemoveDuplicates: upstream TestRemoveDuplicatesUniformly', () => {
  it.each((uniformly as unknown as Row[]).map((row) => [row.description, row] as const))('%s', (_d, row) => {
    expect(run(row).evicted).toHaveLength(DISTINCT_PODS[row.description] ?? row.expectedEvictedPodCount);
  });

  it('evicts the pods above the rounded-up average of their node, the later ones first', () => {
    const [row] = uniformly as unknown as Row[];
    // (5,3,1) over three nodes: average 3, so n1 gives up its 4th and 5th pod.
    expect(run(row).evictions).toEqual([
      expect.objectContaining({
        pod: 'default/p4',
        node: 'n1',
        strategy: REMOVE_DUPLICATES,
        reason: REMOVE_DUPLICATES,
        detail:
          '5 pods of ReplicaSet default/replicaset-1 with the same images on node n1, more than 3 (9 pods over 3 feasible nodes)',
      }),
      expect.objectContaining({ pod: 'default/p5', node: 'n1' }),
    ]);
  });

  it('stops at the node limit', () => {
    const [row] = uniformly as unknown as Row[];
    const { evicted } = runPlugin({
      plugin: REMOVE_DUPLICATES,
      nodes: row.nodes,
      pods: row.pods,
      limits: { maxNoOfPodsToEvictPerNode: 1 },
    });
    expect(evicted).toEqual(['p4']);
  });
});

describe('RemoveDuplicates args: upstream TestValidateRemovePodsViolatingNodeTaintsArgs (its validation_test.go)', () => {
  const rows = validation as { description: string; args: unknown; errInfo?: string }[];
  it.each(rows.map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const result = removeDuplicatesArgsSchema.safeParse(row.args);
    if (row.errInfo === undefined) expect(result.error).toBeUndefined();
    else expect(result.error?.issues[0].message).toBe(row.errInfo);
  });
});
