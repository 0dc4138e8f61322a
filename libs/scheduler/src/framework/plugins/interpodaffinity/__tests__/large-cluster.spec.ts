/** Benchmark-sized correctness check: 5,000 nodes × 10,000 pods (speed is measured by `npm run bench`, not here). */
import { CycleState } from '../../../cycle-state';
import type { NodeScore } from '../../../interface';
import { affinity, inReq, node, pod, setup, term } from './helpers';

it('one attempt over 5,000 nodes and 10,000 pods rejects exactly the nodes holding the anti-affine app', () => {
  const nodes = Array.from({ length: 5000 }, (_, i) =>
    node(`n${i}`, { 'kubernetes.io/hostname': `n${i}`, 'topology.kubernetes.io/zone': `z${i % 5}` }),
  );
  const pods = Array.from({ length: 10000 }, (_, i) =>
    pod(
      { app: `a${i % 50}` },
      {
        node: `n${i % 5000}`,
        affinity:
          i % 20 === 0
            ? affinity({ requiredAnti: [term('kubernetes.io/hostname', [inReq('app', `a${i % 50}`)])] })
            : undefined,
      },
    ),
  );
  const { plugin, handle } = setup({ nodes, pods });
  const incoming = pod(
    { app: 'a0' },
    {
      affinity: affinity({
        requiredAnti: [term('kubernetes.io/hostname', [inReq('app', 'a0')])],
        preferred: [[10, term('topology.kubernetes.io/zone', [inReq('app', 'a1')])]],
      }),
    },
  );
  const state = new CycleState();
  expect(plugin.preFilter(state, incoming).status).toBeNull();
  const list = handle.snapshot().list();
  const feasible = list.filter((ni) => plugin.filter(state, incoming, ni) === null);
  expect(plugin.preScore(state, incoming, feasible)).toBeNull();
  const scores: NodeScore[] = feasible.map((ni) => ({
    name: ni.name,
    score: plugin.score(state, incoming, ni)[0],
  }));
  plugin.normalizeScore(state, incoming, scores);
  // Pods of app a0 sit on every 50th node; they block exactly those 100 nodes.
  expect(feasible.length).toBe(4900);
  expect(scores.every((s) => s.score >= 0 && s.score <= 100)).toBe(true);
});
