import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import { makeNode, makePod } from '../testing/builders';
import { buildClusterState } from './cluster';
import { createNodeFit } from './node-fit';
import { createSimulator, setupEngine, simulate } from './simulate';

const ZONE = 'topology.kubernetes.io/zone';

function cluster(): { nodes: Node[]; pods: Pod[] } {
  const nodes = [
    makeNode({ name: 'a1', labels: { [ZONE]: 'a' }, allocatable: { cpu: '4', memory: '8Gi', pods: '110' } }),
    makeNode({ name: 'a2', labels: { [ZONE]: 'a' }, allocatable: { cpu: '4', memory: '8Gi', pods: '110' } }),
    makeNode({ name: 'b1', labels: { [ZONE]: 'b' }, allocatable: { cpu: '2', memory: '8Gi', pods: '110' } }),
    makeNode({
      name: 'b2',
      labels: { [ZONE]: 'b' },
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    }),
  ];
  const spread = {
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: ZONE,
        whenUnsatisfiable: 'DoNotSchedule' as const,
        labelSelector: { matchLabels: { app: 'spread' } },
      },
    ],
    containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '100m' } } }],
  };
  const antiAffinity = {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'solo' } }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    },
    containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '100m' } } }],
  };
  const pods = [
    makePod({ name: 'big', nodeName: 'a1', requests: [{ cpu: '3' }] }),
    makePod({ name: 'mid', nodeName: 'b1', requests: [{ cpu: '1500m' }] }),
    makePod({ name: 'solo-1', nodeName: 'a1', labels: { app: 'solo' }, spec: antiAffinity }),
    makePod({ name: 'solo-2', nodeName: 'a2', labels: { app: 'solo' }, spec: antiAffinity }),
    makePod({ name: 'spread-1', nodeName: 'a1', labels: { app: 'spread' }, spec: spread }),
    makePod({ name: 'spread-2', nodeName: 'a2', labels: { app: 'spread' }, spec: spread }),
    makePod({ name: 'spread-3', nodeName: 'b1', labels: { app: 'spread' }, spec: spread }),
  ];
  return { nodes, pods };
}

const objects = (c: { nodes: Node[]; pods: Pod[] }): KubeObject[] =>
  [...c.nodes, ...c.pods] as unknown as KubeObject[];

function nodeFitOf(c: { nodes: Node[]; pods: Pod[] }) {
  const state = buildClusterState(objects(c));
  return createNodeFit(createSimulator(state, setupEngine({})));
}

/**
 * The engine's own answer: the pod, taken off its node, scheduled again with every other node
 * cordoned (cordoning, unlike pinning the pod by affinity, leaves spread domains as they are).
 */
function schedulesOn(c: { nodes: Node[]; pods: Pod[] }, pod: Pod, node: string): boolean {
  const { nodeName: _old, ...spec } = pod.spec!;
  const nodes = c.nodes.map((n) =>
    n.metadata?.name === node ? n : { ...n, spec: { ...n.spec, unschedulable: true } },
  );
  const others = c.pods.filter((p) => p !== pod);
  const state = buildClusterState(objects({ nodes, pods: [...others, { ...pod, spec }] }));
  const result = simulate(state, { preemption: false });
  return result.results[0].node === node;
}

describe('createNodeFit: the descheduler NodeFit answered by the engine', () => {
  const c = cluster();
  const fit = nodeFitOf(c);
  const pod = (name: string) => c.pods.find((p) => p.metadata?.name === name)!;

  it('does not count the pod against the node it runs on', () => {
    expect(fit(pod('big'), 'a1')).toEqual({ fits: true });
    expect(fit(pod('solo-1'), 'a1')).toEqual({ fits: true });
  });

  it("names the refusing filter plugin and its reason in the scheduler's words", () => {
    expect(fit(pod('big'), 'b1')).toEqual({
      fits: false,
      plugin: 'NodeResourcesFit',
      reason: 'Insufficient cpu',
    });
    expect(fit(pod('solo-1'), 'a2')).toMatchObject({ fits: false, plugin: 'InterPodAffinity' });
    expect(fit(pod('big'), 'b2')).toMatchObject({ fits: false, plugin: 'TaintToleration' });
  });

  it("takes the pod's own count out of its old topology domain", () => {
    // spread-3 leaving zone b for zone a: a would hold 3, b none: skew 3 > maxSkew 1.
    expect(fit(pod('spread-3'), 'a1')).toMatchObject({ fits: false, plugin: 'PodTopologySpread' });
    // spread-1 moving within zone a (a stays at 2, b at 1) fits.
    expect(fit(pod('spread-1'), 'a2')).toEqual({ fits: true });
  });

  it('agrees with scheduling the pod again, for every pod and node', () => {
    for (const p of c.pods)
      for (const n of c.nodes) {
        const name = n.metadata!.name!;
        expect([p.metadata!.name, name, fit(p, name).fits]).toEqual([
          p.metadata!.name,
          name,
          schedulesOn(c, p, name),
        ]);
      }
  });
});
