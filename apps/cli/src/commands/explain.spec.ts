import { spawnSync } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(__dirname, '../../bin/schedlab.js');
const clusterSmall = path.resolve(__dirname, '../../../../examples/cluster-small.yaml');

function explain(...args: string[]) {
  return spawnSync(process.execPath, [bin, 'explain', '--cluster', clusterSmall, ...args], { encoding: 'utf8' });
}

function rowOf(stdout: string, node: string): string | undefined {
  return stdout.split('\n').find((l) => l.trimStart().startsWith(`${node} `));
}

describe('schedlab explain', () => {
  it('shows the plugin and upstream reason that rejected each node', () => {
    const r = explain('--pod', 'shop/cache-3');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Pod shop\/cache-3 {2}priority 1000 {2}scheduler default-scheduler\nResult: unschedulable\n/);
    expect(rowOf(r.stdout, 'node-b1')).toMatch(/eu-west-1b\s+Unschedulable\s+InterPodAffinity\s+node\(s\) didn't match pod anti-affinity rules$/);
    expect(rowOf(r.stdout, 'node-b3')).toMatch(/UnschedulableAndUnresolvable\s+NodeUnschedulable\s+node\(s\) were unschedulable$/);
    expect(rowOf(r.stdout, 'node-c3-db')).toMatch(/TaintToleration\s+node\(s\) had untolerated taint \{dedicated: database\}$/);
    expect(r.stdout).toContain('0/9 nodes are available: ');
  });

  it('lays out preemption and the scores of the node finally chosen', () => {
    const r = explain('--pod', 'shop/checkout-5c7b9-0');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Result: scheduled on node-b2 after preempting batch/report-builder-1');
    expect(r.stdout).toContain('Preemption: nominated node node-b2, evicting batch/report-builder-1');
    expect(r.stdout).toMatch(/^ {2}node-c2\s+0\s+batch\/report-builder-2$/m);
    expect(r.stdout).toMatch(/node-b2: total \d+ \(chosen, top score\)/);
    // TaintToleration's weight is 3 in the default profile; its normalized score is 100 for a node with no taints.
    expect(r.stdout).toMatch(/TaintToleration\s+\d+\s+3\s+300/);
  });

  it('gives per-plugin scores whose weighted sum is the node total', () => {
    const r = explain('--pod', 'shop/web-7d9f8b6c5-z7rjs');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    const totals = lines.flatMap((l, i) => {
      const m = /^ {2}(\S+): total (\d+)/.exec(l);
      return m ? [{ node: m[1], total: Number(m[2]), at: i }] : [];
    });
    expect(totals.length).toBeGreaterThan(1);
    for (const { total, at } of totals) {
      let sum = 0;
      for (let i = at + 2; i < lines.length && /^ {4}\S/.test(lines[i]); i++) sum += Number(lines[i].trim().split(/\s+/).pop());
      expect(sum).toBe(total);
    }
  });

  it('exits 1 for a pod that is not pending or does not exist', () => {
    const running = explain('--pod', 'shop/cache-0');
    expect(running.status).toBe(1);
    expect(running.stderr).toContain('--pod shop/cache-0: the pod is not pending, it runs on node-a2');
    const missing = explain('--pod', 'nope');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`--pod default/nope: no such pod in ${clusterSmall}`);
  });
});
