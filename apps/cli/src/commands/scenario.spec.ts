import { readFileSync } from 'node:fs';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { simulateScenario } from '@schedlab/scenarios';
import { scheduleWorkloads } from '@schedlab/workloads';
import { example, schedlab, schedlabJson, writeTemp } from '../testing/cli';
import type { SimulationDocument } from '../output/placements';
import type { ScenarioDocument } from './scenario';

const cluster = example('cluster-small.yaml');
const drainZone = example('scenarios', 'drain-zone.yaml');
const objectsOf = (file: string) => parseKubernetesObjects(readFileSync(file, 'utf8')).objects;

describe('schedlab simulate --scenario', () => {
  let doc: ScenarioDocument;
  beforeAll(() => {
    doc = schedlabJson<ScenarioDocument>('simulate', '--cluster', cluster, '--scenario', drainZone);
  });

  it("lists every step with what it changed, after the scheduling of the dump's own pending pods", () => {
    expect(doc.scenario.name).toBe('drain zone eu-west-1b');
    expect(doc.scenario.steps.map((s) => [s.index, s.operation])).toEqual([
      [null, 'schedule pending pods'],
      [0, 'addNodes'],
      [1, 'drain'],
      [2, 'removeNodes'],
    ]);
    const [, add, drain, remove] = doc.scenario.steps;
    expect(add.changes.filter((c) => c.type === 'nodeAdded').map((c) => c.object)).toEqual([
      'Node/node-c-extra-0',
      'Node/node-c-extra-1',
    ]);
    // The ReplicaSet's web replica is evicted and recreated; the two bare pods on node-b2 are lost.
    expect(drain.changes).toContainEqual({
      type: 'podEvicted',
      object: 'shop/web-7d9f8b6c5-m2hvd',
      detail: 'from node-b1: drain',
    });
    expect(
      drain.changes
        .filter((c) => c.type === 'podLost')
        .map((c) => c.object)
        .sort(),
    ).toEqual(['shop/cache-1', 'shop/checkout-5c7b9-0']);
    expect(drain.changes).toContainEqual({
      type: 'podScheduled',
      object: 'shop/web-7d9f8b6c5-m2hvd',
      detail: 'node-c-extra-0',
    });
    expect(remove.changes.filter((c) => c.type === 'nodeRemoved').map((c) => c.object)).toEqual([
      'Node/node-b1',
      'Node/node-b2',
      'Node/node-b3',
    ]);
  });

  it('shows the final placements, as the library computes them', () => {
    const library = simulateScenario(objectsOf(cluster), readFileSync(drainZone, 'utf8'), { seed: 0 });
    for (const p of doc.placements) {
      if (p.outcome === 'scheduled') expect(library.placements[p.pod]).toBe(p.node);
      else expect(library.pending).toContain(p.pod);
    }
    expect(doc.placements.find((p) => p.pod === 'shop/web-7d9f8b6c5-m2hvd')).toMatchObject({
      node: 'node-c-extra-0',
      zone: 'eu-west-1c',
    });
    expect(doc.placements.some((p) => p.node?.startsWith('node-b'))).toBe(false);
    expect(doc.summary).toMatchObject({ pods: 6, scheduled: 3, unschedulable: 3, preempted: 1 });
  });

  it('prints the step table then the placement table', () => {
    const r = schedlab('simulate', '--cluster', cluster, '--scenario', drainZone);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Scenario "drain zone eu-west-1b" (' + drainZone + ')');
    expect(lines[1]).toMatch(/^STEP\s+OPERATION\s+CHANGE\s+WHAT$/);
    expect(lines.find((l) => /^1\s+drain\s+nodeUpdated/.test(l))).toContain(
      '2: Node/node-b1 (cordoned), Node/node-b2 (cordoned)',
    );
    expect(lines).toContain('Final placements');
    expect(lines.find((l) => l.startsWith('shop/web-7d9f8b6c5-m2hvd '))).toMatch(
      /Scheduled\s+node-c-extra-0\s+eu-west-1c\s+100000\s+<none>$/,
    );
  });

  it('exits 1 naming the scenario file and the failing step index', () => {
    const bad = writeTemp(
      'bad.yaml',
      'steps:\n  - cordon: {nodes: [node-a1]}\n  - drain: {nodes: {selector: "pool=nope"}}\n',
    );
    const r = schedlab('simulate', '--cluster', cluster, '--scenario', bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^schedlab: ${bad}: steps\\[1\\]\\.drain\\.nodes: .*pool=nope`));
    const unknown = writeTemp('unknown.yaml', 'steps:\n  - explode: {}\n');
    expect(schedlab('simulate', '--cluster', cluster, '--scenario', unknown).stderr).toContain(
      `${unknown}: steps[0].explode: unknown operation`,
    );
  });
});

describe('schedlab simulate on a dump with a Deployment and no pods', () => {
  const file = example('deployment-only.yaml');

  it('creates the pods through the controllers and admission, then schedules them', () => {
    const doc = schedlabJson<SimulationDocument>('simulate', '--cluster', file);
    const scheduled = doc.placements.filter((p) => p.outcome === 'scheduled');
    // Quota requests.cpu=4 admits four 1-CPU replicas; three 2-CPU nodes hold at most two each.
    expect(scheduled).toHaveLength(4);
    for (const p of scheduled) expect(p.pod).toMatch(/^shop\/api-[a-z0-9]+-[a-z0-9]{5}$/);
    const perNode = new Map<string, number>();
    for (const p of scheduled) perNode.set(p.node!, (perNode.get(p.node!) ?? 0) + 1);
    expect([...perNode.values()].every((n) => n <= 2)).toBe(true);
    const rejected = doc.placements.filter((p) => p.outcome === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0].message).toMatch(
      /^pods "api-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: compute, requested: requests.cpu=1, used: requests.cpu=4, limited: requests.cpu=4$/,
    );
    expect(doc.summary).toMatchObject({ pods: 4, scheduled: 4, unschedulable: 0 });
    const library = scheduleWorkloads(objectsOf(file), { seed: 0 });
    expect(scheduled.map((p) => [p.pod, p.node])).toEqual(library.results.map((r) => [r.pod, r.node]));
  });

  it('shows the rejected pod as a row with the API server message (in short; in full under -o wide)', () => {
    const r = schedlab('simulate', '--cluster', file);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\nshop\/api-\S+\s+Rejected\s+<not created>\s+0\s+exceeded quota: compute\n/);
    expect(schedlab('simulate', '--cluster', file, '-o', 'wide').stdout).toMatch(
      /\nshop\/api-\S+\s+Rejected\s+<not created>.*\s+pods "api-\S+" is forbidden: exceeded quota: compute, requested: /,
    );
    expect(r.stdout).toContain(
      '4 pending pods: 4 scheduled, 0 unschedulable, 0 preempted, 1 rejected by admission',
    );
  });
});
