import { example, schedlab, schedlabJson, writeTemp } from '../testing/cli';
import type { DescheduleDocument } from './deschedule';

const lnu = ['--policy', example('descheduler/low-node-utilization-policy.yaml')];
const lnuCluster = ['--cluster', example('descheduler/low-node-utilization.yaml')];
const spread = ['--policy', example('descheduler/topology-spread-policy.yaml')];
const spreadCluster = ['--cluster', example('descheduler/topology-spread.yaml')];

const moves = (doc: DescheduleDocument) =>
  doc.evictions.map((e) => [e.pod, e.oldNode, e.newNode ?? e.outcome]);
const requested = (nodes: DescheduleDocument['before']['nodes']) =>
  nodes.reduce((n, x) => n + x.cpu.requested, 0);

describe('schedlab deschedule', () => {
  it('LowNodeUtilization: web pods leave the hot eu-west-1a nodes; the scheduler puts two back on node-1', () => {
    const doc = schedlabJson<DescheduleDocument>('deschedule', ...lnu, ...lnuCluster);
    expect(moves(doc)).toEqual([
      ['shop/web-6d8f9-b2x4k', 'node-1', 'node-3'],
      ['shop/web-6d8f9-c9m7q', 'node-1', 'node-4'],
      ['shop/web-6d8f9-d4n8r', 'node-1', 'node-3'],
      ['shop/web-6d8f9-f7p2s', 'node-1', 'node-4'],
      ['shop/web-6d8f9-h8w9x', 'node-2', 'node-1'],
      ['shop/web-6d8f9-j2z4b', 'node-2', 'node-3'],
      ['shop/web-6d8f9-k5c7d', 'node-2', 'node-1'],
    ]);
    for (const e of doc.evictions) {
      expect(e).toMatchObject({
        strategy: 'LowNodeUtilization',
        profile: 'rebalance',
        owner: 'ReplicaSet/web-6d8f9',
      });
      expect(e.replacement).toMatch(/^shop\/web-6d8f9-[a-z0-9]{5}$/);
    }
    const cpu = (figures: DescheduleDocument['before']) =>
      Object.fromEntries(figures.nodes.map((n) => [n.name, n.cpu.ratio]));
    expect(cpu(doc.before)).toEqual({ 'node-1': 0.9, 'node-2': 0.9, 'node-3': 0.025, 'node-4': 0.15 });
    expect(cpu(doc.after)).toEqual({ 'node-1': 0.65, 'node-2': 0.525, 'node-3': 0.4, 'node-4': 0.4 });
    expect(doc.after.zones.map((z) => [z.zone, z.pods, z.cpu.requested])).toEqual([
      ['eu-west-1a', 9, 4700],
      ['eu-west-1b', 8, 3200],
    ]);
    // Evictions move requests, they do not lose them: every replacement was bound.
    expect(requested(doc.after.nodes)).toBe(requested(doc.before.nodes));
    expect(doc.oscillation.map((o) => [o.kind, o.nodes])).toEqual([
      ['returnedToOldNode', ['node-1']],
      ['returnedToOldNode', ['node-1']],
    ]);
  });

  it('LowNodeUtilization with rounds: the second round evicts nothing', () => {
    const doc = schedlabJson<DescheduleDocument>('deschedule', ...lnu, ...lnuCluster, '--rounds', '4');
    expect(doc.converged).toBe(true);
    expect(doc.summary).toEqual({ evicted: 7, rescheduled: 7, unschedulable: 0, lost: 0, rounds: 1 });
  });

  it('RemovePodsViolatingTopologySpreadConstraint: two api pods of node-a1 move to eu-west-1b, skew 4 → 0', () => {
    const doc = schedlabJson<DescheduleDocument>('deschedule', ...spread, ...spreadCluster);
    expect(moves(doc)).toEqual([
      ['shop/api-5c9f7-c3n8p', 'node-a1', 'node-b2'],
      ['shop/api-5c9f7-b7k2m', 'node-a1', 'node-b1'],
    ]);
    expect(doc.before.spread).toEqual([
      expect.objectContaining({ selector: 'app=api', counts: { 'eu-west-1a': 5, 'eu-west-1b': 1 }, skew: 4 }),
    ]);
    expect(doc.after.spread).toEqual([
      expect.objectContaining({ counts: { 'eu-west-1a': 3, 'eu-west-1b': 3 }, skew: 0 }),
    ]);
    expect(doc.before.violations.map((v) => [v.pod, v.kind])).toEqual([
      ['shop/api-5c9f7-b7k2m', 'topologySpread'],
      ['shop/api-5c9f7-c3n8p', 'topologySpread'],
      ['shop/api-5c9f7-d9q4r', 'topologySpread'],
      ['shop/api-5c9f7-f2s6t', 'topologySpread'],
      ['shop/api-5c9f7-g5v8w', 'topologySpread'],
    ]);
    expect(doc.after.violations).toEqual([]);
  });

  it('prints the evictions and the before → after tables', () => {
    const r = schedlab('deschedule', ...spread, ...spreadCluster);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('shop/api-5c9f7-c3n8p  RemovePodsViolatingTopologySpreadConstraint');
    expect(r.stdout).toMatch(/node-a1 +eu-west-1a +18\.8% → 6\.3% +9\.4% → 3\.1% +3 → 1/);
    expect(r.stdout).toMatch(
      /shop app=api by topology\.kubernetes\.io\/zone \(maxSkew 1, DoNotSchedule\) +4 → 0/,
    );
    expect(r.stdout).toContain('violations: taint 0, nodeAffinity 0, podAffinity 0, topologySpread 5 → 0');
  });

  it('simulate --scenario: a deschedule step reads its policyFile and keeps its report', () => {
    const scenario = writeTemp(
      'scenario.yaml',
      `steps:
  - cordon: { nodes: [node-b1] }
  - deschedule: { policyFile: ${example('descheduler/topology-spread-policy.yaml')} }
`,
    );
    const doc = schedlabJson<{
      scenario: { steps: { operation: string; descheduling?: DescheduleDocument }[] };
    }>('simulate', ...spreadCluster, '--scenario', scenario);
    const step = doc.scenario.steps.find((s) => s.operation === 'deschedule')!;
    expect(moves(step.descheduling!)).toEqual([
      ['shop/api-5c9f7-c3n8p', 'node-a1', 'node-b2'],
      ['shop/api-5c9f7-b7k2m', 'node-a1', 'node-b2'],
    ]);
    const bad = writeTemp(
      'policy.yaml',
      'apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\nprofiles: 3\n',
    );
    const broken = writeTemp('scenario.yaml', `steps:\n  - deschedule: { policyFile: ${bad} }\n`);
    const r = schedlab('simulate', ...spreadCluster, '--scenario', broken);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^schedlab: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: profiles: `),
    );
  });

  it('names the policy file, profile, plugin and field of a bad policy (exit 1)', () => {
    const policy = writeTemp(
      'policy.yaml',
      `apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
  - name: rebalance
    pluginConfig:
      - name: LowNodeUtilization
        args: { thresholds: { cpu: 200 } }
    plugins: { balance: { enabled: [LowNodeUtilization] } }
`,
    );
    const r = schedlab('deschedule', '--policy', policy, ...lnuCluster);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^schedlab: ${policy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: profiles\\[0\\] "rebalance": pluginConfig "LowNodeUtilization": args\\.thresholds`,
      ),
    );
  });
});
