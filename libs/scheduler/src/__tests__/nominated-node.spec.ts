import type { Pod } from '@schedlab/k8s';
import { simulate } from '../simulation/simulate';
import { makeNode, makePod } from '../testing/builders';

describe('a pod with a nominated node', () => {
  it('counts its nominated node once when it fits neither there nor anywhere else', () => {
    // The nominated node is filtered first, then every node with the same diagnosis: its second
    // status replaces the first (upstream NodeToStatus.Set), so the message counts 2 nodes, not 3.
    const pod: Pod = {
      ...makePod({ name: 'p', requests: [{ cpu: '2' }] }),
      status: { nominatedNodeName: 'n1' },
    };
    const items = [
      makeNode({ name: 'n1', allocatable: { cpu: '1', memory: '4Gi', pods: '10' } }),
      makeNode({ name: 'n2', allocatable: { cpu: '1', memory: '4Gi', pods: '10' } }),
      pod,
    ];
    const r = simulate(items as never).results[0];
    expect(r.node).toBeNull();
    expect(r.message).toMatch(/^0\/2 nodes are available: 2 Insufficient cpu\. /);
  });
});
