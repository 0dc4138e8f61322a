/** explain: 'summary' must change what is recorded, never what is decided. */
import type { KubeObject } from '@schedlab/k8s';
import { simulate } from '../simulation/simulate';
import { makeNode, makePod } from '../testing/builders';

function cluster(): KubeObject[] {
  const nodes = Array.from({ length: 120 }, (_, i) =>
    makeNode({ name: `n${String(i).padStart(3, '0')}`, labels: { zone: `z${i % 3}` }, allocatable: { cpu: '2', memory: '4Gi', pods: '110' } }),
  );
  const low = Array.from({ length: 120 }, (_, i) =>
    makePod({ name: `low-${i}`, nodeName: `n${String(i).padStart(3, '0')}`, requests: [{ cpu: '1500m' }], spec: { containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '1500m' } } }], priorityClassName: 'low' } }),
  );
  const pending = Array.from({ length: 60 }, (_, i) =>
    makePod({
      name: `p-${i}`,
      labels: { app: `a${i % 2}` },
      requests: [{ cpu: i % 10 === 0 ? '1800m' : '300m', memory: '256Mi' }],
      spec: {
        containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: i % 10 === 0 ? '1800m' : '300m' } } }],
        priorityClassName: i % 10 === 0 ? 'high' : 'low',
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: `a${i % 2}` } } }],
          },
        },
      },
    }),
  );
  const classes = [
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 1 },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 100 },
  ];
  return [...classes, ...nodes, ...low, ...pending] as KubeObject[];
}

describe("explain: 'summary'", () => {
  const options = { compatibilityVersion: '1.26', seed: 7 };
  const full = simulate(cluster(), options);
  const summary = simulate(cluster(), { ...options, explain: 'summary' });

  it('places, preempts and reports exactly as full explanations do', () => {
    expect(summary.summary).toEqual(full.summary);
    expect(full.summary.preempted).toBeGreaterThan(0);
    expect(summary.results.map((r) => [r.pod, r.outcome, r.node, r.victims, r.message, r.evaluated])).toEqual(
      full.results.map((r) => [r.pod, r.outcome, r.node, r.victims, r.message, r.evaluated]),
    );
  });

  it("keeps only the selected node's total score and no per-node records", () => {
    const scheduled = summary.results.filter((r) => r.outcome === 'scheduled' && r.attempts === 1);
    expect(scheduled.length).toBeGreaterThan(0);
    for (const r of scheduled) {
      const fullResult = full.results.find((f) => f.pod === r.pod)!;
      expect(r.scores).toEqual({ [r.node!]: fullResult.scores[r.node!] });
      expect(r.feasible).toEqual([]);
      expect(r.pluginScores).toEqual({});
      expect(r.filterReasons).toEqual({});
    }
  });
});
