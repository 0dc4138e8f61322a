import { readFileSync } from 'node:fs';
import path from 'node:path';
import { example, schedlab, writeTemp } from '../testing/cli';
import type { CheckDocument } from './check';
import type { CheckResult } from '../check/evaluate';
import type { SimulationDocument } from '../output/placements';

const cluster = example('cluster-small.yaml');
const binPacking = example('profiles', 'bin-packing.yaml');
const spread = example('profiles', 'spread.yaml');

function checkJson(...args: string[]): { status: number | null; doc: CheckDocument; stderr: string } {
  const r = schedlab('check', ...args, '-o', 'json');
  return { status: r.status, doc: JSON.parse(r.stdout) as CheckDocument, stderr: r.stderr };
}

/** The result of the check named `name`; a missing one fails the test. */
function checkNamed(doc: CheckDocument, name: string): CheckResult {
  const found = doc.checks.find((c) => c.name === name);
  if (!found) throw new Error(`no check named "${name}" in ${doc.checks.map((c) => c.name).join(', ')}`);
  return found;
}

describe('schedlab check', () => {
  it("passes the example of docs/ci-gates.md, run exactly as the doc's pipeline runs it", () => {
    const doc = readFileSync(path.join(__dirname, '../../../../docs/ci-gates.md'), 'utf8');
    // The command of the doc's pipelines, with the repository's paths.
    const commands = [...doc.matchAll(/schedlab (check --cluster \S+ --config \S+ --expect \S+)/g)].map(
      (m) => m[1],
    );
    expect(commands.length).toBeGreaterThanOrEqual(3); // the example, GitHub Actions, GitLab CI
    const command = commands[0];
    expect(new Set(commands)).toEqual(new Set([command]));
    expect(command).toBe(
      'check --cluster examples/cluster-small.yaml --config examples/profiles/bin-packing.yaml --expect examples/checks/cluster-small.expectations.yaml',
    );
    const args = command.split(' ').map((a) => (a.startsWith('examples/') ? example(a.slice(9)) : a));
    const r = schedlab(...args);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^PASS {2}web and checkout schedulable {2,}5 pods: 2 scheduled by the run, 3 running already$/m,
    );
    expect(r.stdout).toContain('\nall 6 checks passed (kube-scheduler 1.37 behaviour)\n');
    expect(r.stdout).not.toContain('FAIL');
  });

  it('the committed baseline is what simulate prints for the example dump', () => {
    const baseline = JSON.parse(readFileSync(example('checks', 'cluster-small.baseline.json'), 'utf8'));
    const now = schedlab('simulate', '--cluster', cluster, '-o', 'json');
    expect((JSON.parse(now.stdout) as SimulationDocument).placements).toEqual(baseline.placements);
  });

  it('fails each kind of check with the pods, where they went and the FitError, and exits 1', () => {
    const baselineJson = example('checks', 'cluster-small.baseline.json');
    const file = writeTemp(
      'failing.yaml',
      `checks:
  - name: all of shop schedulable
    schedulable: {selector: {namespace: shop}}
  - name: batch keeps running
    schedulable: {selector: {namespace: batch}}
  - name: checkout on node-a1, exporter in eu-west-1a
    placements:
      - {pod: shop/checkout-5c7b9-0, node: node-a1}
      - {selector: {labels: app=metrics-exporter}, nodeSelector: {topology.kubernetes.io/zone: eu-west-1a}}
  - name: monitoring cannot schedule
    unschedulable: {selector: {namespace: monitoring}}
  - name: postgres-1 fails for cpu
    unschedulable: {selector: {pods: [db/postgres-1]}, reason: Insufficient cpu}
  - name: nothing moves
    maxMovedVsBaseline: {baseline: ${baselineJson}, max: 0}
  - name: nothing moves vs spread
    maxMovedVsBaseline: {baseline: ${cluster}, config: ${spread}, max: 0}
  - name: 40 more web pods
    capacity: {podTemplate: ${example('templates', 'web-pod.yaml')}, atLeast: 40}
  - name: no such pod
    placements: {pod: shop/nope, node: node-a1}
`,
    );
    const { status, doc } = checkJson('--cluster', cluster, '--config', binPacking, '--expect', file);
    expect(status).toBe(1);
    expect(doc.passed).toBe(false);
    expect(doc.summary).toEqual({ checks: 9, passed: 0, failed: 9 });
    const cache = checkNamed(doc, 'all of shop schedulable').failures;
    expect(cache).toEqual([
      {
        pod: 'shop/cache-3',
        expected: 'a node',
        actual: 'pending: Insufficient cpu',
        message: expect.stringMatching(/^0\/9 nodes are available: .*3 Insufficient cpu/),
      },
    ]);
    expect(checkNamed(doc, 'batch keeps running').failures).toEqual([
      {
        pod: 'batch/report-builder-1',
        expected: 'a node',
        actual: 'preempted by shop/checkout-5c7b9-0 (from node-b2)',
      },
    ]);
    expect(checkNamed(doc, 'checkout on node-a1, exporter in eu-west-1a').failures).toEqual([
      { pod: 'shop/checkout-5c7b9-0', expected: 'node node-a1', actual: 'scheduled on node-b2' },
      {
        pod: 'monitoring/metrics-exporter',
        expected: 'a node with topology.kubernetes.io/zone=eu-west-1a',
        actual: 'scheduled on node-c2 (topology.kubernetes.io/zone=eu-west-1c)',
      },
    ]);
    expect(checkNamed(doc, 'monitoring cannot schedule').failures).toEqual([
      { pod: 'monitoring/metrics-exporter', expected: 'no node', actual: 'scheduled on node-c2' },
    ]);
    expect(checkNamed(doc, 'postgres-1 fails for cpu').failures).toEqual([
      {
        pod: 'db/postgres-1',
        expected: 'no node, for "Insufficient cpu"',
        actual: "pending: node(s) didn't match Pod's node affinity/selector",
        message: expect.stringMatching(/^0\/9 nodes are available: /),
      },
    ]);
    const moved = [
      {
        pod: 'monitoring/metrics-exporter',
        expected: 'node node-c1 (as in the baseline)',
        actual: 'scheduled on node-c2',
      },
    ];
    expect(checkNamed(doc, 'nothing moves').failures).toEqual(moved);
    expect(checkNamed(doc, 'nothing moves vs spread').failures).toEqual(moved);
    expect(checkNamed(doc, '40 more web pods')).toMatchObject({
      summary: 'only 7 copies of shop/web-extra fit (at least 40 expected)',
      failures: [
        {
          pod: 'shop/web-extra',
          expected: 'at least 40 copies',
          actual: '7 copies, then Insufficient cpu',
          message: expect.stringMatching(/^0\/9 nodes are available: .*6 Insufficient cpu\.$/),
        },
      ],
    });
    expect(checkNamed(doc, 'no such pod').failures).toEqual([
      { pod: 'shop/nope', expected: 'a pod of the cluster', actual: 'no such pod' },
    ]);

    const table = schedlab('check', '--cluster', cluster, '--config', binPacking, '--expect', file);
    expect(table.status).toBe(1);
    expect(table.stdout).toContain(
      [
        'FAIL checkout on node-a1, exporter in eu-west-1a (placements)',
        '  - shop/checkout-5c7b9-0: expected node node-a1',
        '    + got scheduled on node-b2',
      ].join('\n'),
    );
    expect(table.stdout).toMatch(
      / {2}- shop\/cache-3: expected a node\n {4}\+ got pending: Insufficient cpu\n {6}0\/9 nodes are available: /,
    );
    expect(table.stdout).toContain('\n9 of 9 checks failed');
  });

  it('passes the same kinds when they hold: moves within the limit, a baseline dump, enough capacity', () => {
    const file = writeTemp(
      'passing.yaml',
      `checks:
  - maxMovedVsBaseline: {baseline: ${cluster}, config: ${spread}, max: 1}
  - capacity: {podTemplate: ${example('templates', 'web-pod.yaml')}, atLeast: 7}
  - unschedulable: {selector: {namespace: ml, labels: app=trainer, pods: [ml/trainer-run-42]}}
  - schedulable: {}
`,
    );
    const { status, doc } = checkJson('--cluster', cluster, '--profile', binPacking, '--expect', file);
    expect(doc.checks.map((c) => [c.kind, c.passed, c.summary])).toEqual([
      ['maxMovedVsBaseline', true, '1 pod of 3 moved vs the baseline (at most 1)'],
      ['capacity', true, 'at least 7 copies of shop/web-extra fit'],
      ['unschedulable', true, '1 pod without a node, as expected'],
      ['schedulable', false, expect.stringMatching(/^4 of \d+ pods without a node$/)],
    ]);
    expect(status).toBe(1);
  });

  it("selects a pod admission refused by its workload's template labels: a quota-refused replica fails", () => {
    const file = writeTemp('api.yaml', 'checks:\n  - schedulable: {selector: {labels: app=api}}\n');
    const { status, doc } = checkJson('--cluster', example('deployment-only.yaml'), '--expect', file);
    expect(status).toBe(1);
    expect(doc.checks[0].summary).toBe('1 of 5 pods without a node');
    expect(doc.checks[0].failures).toEqual([
      {
        pod: expect.stringMatching(/^shop\/api-/),
        expected: 'a node',
        actual: expect.stringMatching(
          /^rejected by admission: pods "api-\S+" is forbidden: exceeded quota: compute/,
        ),
      },
    ]);
  });

  it('exits 2 on bad input, not 1: a bad field, a missing file, a missing flag', () => {
    const bad = writeTemp('bad.yaml', 'checks:\n  - capacity: {podTemplate: web.yaml, atLeast: many}\n');
    const r = schedlab('check', '--cluster', cluster, '--expect', bad);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^schedlab: ${bad}: checks\\[0\\]\\.capacity\\.atLeast: `));
    const missingBaseline = writeTemp(
      'm.yaml',
      'checks:\n  - maxMovedVsBaseline: {baseline: gone.json, max: 1}\n',
    );
    const m = schedlab('check', '--cluster', cluster, '--expect', missingBaseline);
    expect(m.status).toBe(2);
    expect(m.stderr).toBe(
      `schedlab: ${path.join(path.dirname(missingBaseline), 'gone.json')}: cannot read: no such file\n`,
    );
    const flag = schedlab('check', '--cluster', cluster);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toBe(
      "error: required option '--expect <file>' not specified; see 'schedlab check --help'\n",
    );
  });
});
