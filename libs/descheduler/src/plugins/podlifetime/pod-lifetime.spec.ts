import { runPlugin } from '../../testing/harness';
import {
  NOW,
  buildPodOf,
  nodeOf,
  podLifeTimeRows,
  podLifeTimeValidationRows,
} from './__fixtures__/pod-lifetime.table';
import { POD_LIFE_TIME, podLifeTimeArgsSchema } from './pod-lifetime';

describe('PodLifeTime: upstream tables', () => {
  it.each(podLifeTimeRows().map((row) => [`${row.suite}: ${row.description}`, row] as const))(
    '%s',
    (_d, row) => {
      const { evicted } = runPlugin({
        plugin: POD_LIFE_TIME,
        args: row.args,
        nodes: [nodeOf(row.nodeName)],
        pods: row.pods.map(buildPodOf),
        evictorArgs: { ignorePvcPods: row.ignorePvcPods ?? false },
        limits: {
          maxNoOfPodsToEvictPerNode: row.maxPodsToEvictPerNode,
          maxNoOfPodsToEvictPerNamespace: row.maxPodsToEvictPerNamespace,
          maxNoOfPodsToEvictTotal: row.maxPodsToEvictTotal,
        },
        now: NOW,
      });
      expect(evicted).toHaveLength(row.expectedEvictedPodCount);
      if (row.expectedEvictedPods) expect(new Set(evicted)).toEqual(new Set(row.expectedEvictedPods));
    },
  );

  it.each(podLifeTimeValidationRows.map((row) => [row.description, row] as const))(
    'TestValidation: %s',
    (_d, row) => {
      expect(podLifeTimeArgsSchema.safeParse(row.args).success).toBe(!row.expectError);
    },
  );

  it('ages pods on the snapshot clock, oldest first', () => {
    const pods = [
      buildPodOf({ name: 'young', builder: 'rs', created: new Date(NOW - 700_000).toISOString() }),
      buildPodOf({ name: 'old', builder: 'rs', created: new Date(NOW - 900_000).toISOString() }),
    ];
    const run = (now: number) =>
      runPlugin({
        plugin: POD_LIFE_TIME,
        args: { maxPodLifeTimeSeconds: 600 },
        nodes: [nodeOf('n1')],
        pods,
        now,
      }).evicted;
    expect(run(NOW)).toEqual(['old', 'young']);
    // 200 s earlier, the younger pod is 500 s old and stays.
    expect(run(NOW - 200_000)).toEqual(['old']);
  });
});
