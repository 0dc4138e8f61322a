import { spawnSync } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(__dirname, '../../bin/schedlab.js');
const clusterSmall = path.resolve(__dirname, '../../../../examples/cluster-small.yaml');

function explain(...args: string[]) {
  return spawnSync(process.execPath, [bin, 'explain', '--cluster', clusterSmall, ...args], {
    encoding: 'utf8',
  });
}

function rowOf(stdout: string, node: string): string | undefined {
  return stdout.split('\n').find((l) => l.trimStart().startsWith(`${node} `));
}

describe('schedlab explain', () => {
  it('shows the plugin and upstream reason that rejected each node', () => {
    const r = explain('--pod', 'shop/cache-3', '--all-nodes');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^Pod shop\/cache-3 {2}priority 1000 {2}scheduler default-scheduler\nResult: unschedulable\n/,
    );
    expect(rowOf(r.stdout, 'node-b1')).toMatch(
      /eu-west-1b\s+Unschedulable\s+InterPodAffinity\s+node\(s\) didn't match pod anti-affinity rules$/,
    );
    expect(rowOf(r.stdout, 'node-b3')).toMatch(
      /UnschedulableAndUnresolvable\s+NodeUnschedulable\s+node\(s\) were unschedulable$/,
    );
    expect(rowOf(r.stdout, 'node-c3-db')).toMatch(/TaintToleration\s+node\(s\) had untolerated taint\(s\)$/);
    expect(r.stdout).toContain('0/9 nodes are available: ');
  });

  it('lays out preemption and the scores of the node finally chosen', () => {
    const r = explain('--pod', 'shop/checkout-5c7b9-0', '--all-nodes');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'Result: scheduled on node-b2 (eu-west-1b) after preempting batch/report-builder-1',
    );
    expect(r.stdout).toContain('Preemption: nominated node node-b2, evicting batch/report-builder-1');
    expect(r.stdout).toMatch(/^ {2}node-c2\s+0\s+batch\/report-builder-2$/m);
    expect(r.stdout).toMatch(/node-b2: total \d+ \(chosen, top score\)/);
    // TaintToleration's weight is 3 in the default profile; its normalized score is 100 for a node with no taints.
    expect(r.stdout).toMatch(/TaintToleration\s+\d+\s+3\s+300/);
  });

  it('gives per-plugin scores whose weighted sum is the node total', () => {
    const r = explain('--pod', 'shop/web-7d9f8b6c5-z7rjs', '--all-nodes');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    const totals = lines.flatMap((l, i) => {
      const m = /^ {2}(\S+): total (\d+)/.exec(l);
      return m ? [{ node: m[1], total: Number(m[2]), at: i }] : [];
    });
    expect(totals.length).toBeGreaterThan(1);
    for (const { total, at } of totals) {
      let sum = 0;
      for (let i = at + 2; i < lines.length && /^ {4}\S/.test(lines[i]); i++)
        sum += Number(lines[i].trim().split(/\s+/).pop());
      expect(sum).toBe(total);
    }
  });

  it('summarises first: nodes searched, filter failures grouped by reason with example nodes, no per-node table', () => {
    const r = explain('--pod', 'shop/cache-3');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Nodes: 9 in the cluster, Filter ran on 9, 0 feasible');
    expect(r.stdout).toMatch(/^ {2}NODES\s+PLUGIN\s+CODE\s+REASON\s+e\.g\.$/m);
    expect(r.stdout).toMatch(
      /^ {2}1\s+NodeUnschedulable\s+UnschedulableAndUnresolvable\s+node\(s\) were unschedulable\s+node-b3$/m,
    );
    expect(r.stdout).not.toContain('Every node:');
    const best = explain('--pod', 'shop/checkout-5c7b9-0').stdout;
    // One line per best-scored node: the chosen node first, its plugins' weighted [raw] scores.
    expect(best).toMatch(/^ {2}node-b2\s+\d+\s+chosen, top score\s+.*TaintToleration 300 \[0\]/m);
    expect(r.stdout).toContain('More: --node NAME for one node, --all-nodes for every node.');
  });

  it('shows one node with --node, and says why the chosen node won', () => {
    const r = explain('--pod', 'shop/web-7d9f8b6c5-z7rjs', '--node', 'node-a1');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}Node node-a1:$/m);
    expect(r.stdout.split('\n').filter((l) => /^ {2}node-\S+ {2}/.test(l))).toHaveLength(1);
    expect(r.stdout).toMatch(/^ {2}Chosen: node-\S+, (the highest total|one of \d+ nodes sharing)/m);
  });

  it('prints the explanation as JSON with -o json, every node with --all-nodes', () => {
    const summary = JSON.parse(explain('--pod', 'shop/web-7d9f8b6c5-z7rjs', '-o', 'json').stdout);
    expect(summary.pod).toBe('shop/web-7d9f8b6c5-z7rjs');
    expect(summary.explanation.nodesEvaluated).toBe(9);
    expect(summary.explanation.topScores[0].plugins.length).toBeGreaterThan(0);
    expect(summary.filterReasons).toBeUndefined();
    const all = JSON.parse(explain('--pod', 'shop/web-7d9f8b6c5-z7rjs', '-o', 'json', '--all-nodes').stdout);
    expect(Object.keys(all.filterReasons).length + all.feasible.length).toBe(9);
    expect(Object.keys(all.scores).sort()).toEqual([...all.feasible].sort());
  });

  it('rejects --node for a node the dump does not have', () => {
    const r = explain('--pod', 'shop/cache-3', '--node', 'node-zz');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--node node-zz: no such node in the cluster dump');
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
