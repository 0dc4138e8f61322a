import type { Pod } from '@schedlab/k8s';
import { simulate } from '../simulation/simulate';
import { makeNode, makePod } from '../testing/builders';

describe('score lists reused from one pod to the next', () => {
  it('hold exactly the feasible nodes of each pod as the feasible count shrinks and grows', () => {
    // The framework keeps its score entries between cycles; a pod with fewer feasible nodes (a
    // node selector) between pods with more must see only its own nodes scored.
    const small = new Set(['n0', 'n1']);
    const nodes = Array.from({ length: 6 }, (_, i) =>
      makeNode({
        name: `n${i}`,
        labels: { pool: small.has(`n${i}`) ? 'small' : 'large' },
        allocatable: { cpu: '8', memory: '16Gi', pods: '110' },
      }),
    );
    const pods: Pod[] = Array.from({ length: 8 }, (_, i) => {
      const pod = makePod({ name: `p${i}`, requests: [{ cpu: `${100 * (i + 1)}m`, memory: '256Mi' }] });
      if (i % 2 === 1) pod.spec = { ...pod.spec!, nodeSelector: { pool: 'small' } };
      return pod;
    });
    const { results } = simulate([...nodes, ...pods] as never);
    expect(results).toHaveLength(8);
    results.forEach((r, i) => {
      expect(r.outcome).toBe('scheduled');
      const scored = r.explanation!.topScores.map((s) => s.node);
      if (i % 2 === 1) {
        expect(r.explanation!.nodesFeasible).toBe(2);
        expect(small.has(r.node!)).toBe(true);
        expect(scored.every((n) => small.has(n))).toBe(true);
      } else {
        expect(r.explanation!.nodesFeasible).toBe(6);
      }
      expect(new Set(scored).size).toBe(scored.length);
    });
  });
});
