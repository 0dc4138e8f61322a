import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SimulationDocument } from '../output/placements';

const bin = path.resolve(__dirname, '../../bin/schedlab.js');
const examples = path.resolve(__dirname, '../../../../examples');
const clusterSmall = path.join(examples, 'cluster-small.yaml');

function schedlab(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
}

function writeTemp(name: string, text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-sim-')), name);
  writeFileSync(file, text);
  return file;
}

function simulateJson(...args: string[]): SimulationDocument {
  const r = schedlab('simulate', '--cluster', clusterSmall, '--output', 'json', ...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as SimulationDocument;
}

describe('schedlab simulate', () => {
  it('prints kubectl-style short STATUS and REASON columns: the reason that rejected the most nodes', () => {
    const r = schedlab('simulate', '--cluster', clusterSmall);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^POD\s+STATUS\s+NODE\s+ZONE\s+PRIORITY\s+REASON$/);
    const row = (pod: string) => lines.find((l) => l.startsWith(`${pod} `))?.split(/ {2,}/);
    // 3 Insufficient cpu ties with 3 anti-affinity rejections: the first listed wins.
    expect(row('shop/cache-3')).toEqual(['shop/cache-3', 'Pending', '<pending>', '1000', 'Insufficient cpu']);
    expect(row('ml/trainer-run-42')?.slice(1)).toEqual([
      'Pending',
      '<pending>',
      '1000',
      'Insufficient nvidia.com/gpu',
    ]);
    expect(row('db/postgres-1')?.at(-1)).toBe("node(s) didn't match Pod's node affinity/selector");
    expect(row('shop/checkout-5c7b9-0')).toEqual([
      'shop/checkout-5c7b9-0',
      'Scheduled',
      'node-b2',
      'eu-west-1b',
      '100000',
      'Preempting',
    ]);
    expect(r.stdout).not.toContain('0/9 nodes are available'); // the full FitError is -o wide's
    expect(r.stdout).toContain('6 pending pods: 3 scheduled, 3 unschedulable, 1 preempted');
  });

  it('adds the nominated node, the victims and the full FitError under -o wide', () => {
    const r = schedlab('simulate', '--cluster', clusterSmall, '-o', 'wide');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^POD\s+STATUS\s+NODE\s+ZONE\s+PRIORITY\s+REASON\s+NOMINATED NODE\s+VICTIMS\s+MESSAGE$/,
    );
    const doc = simulateJson();
    for (const p of doc.placements.filter((x) => x.message)) {
      expect(lines.find((l) => l.startsWith(`${p.pod} `))).toContain(p.message);
    }
    expect(lines.find((l) => l.startsWith('shop/checkout-5c7b9-0 '))).toMatch(
      /Preempting\s+node-b2\s+batch\/report-builder-1\s+Successfully assigned shop\/checkout-5c7b9-0 to node-b2$/,
    );
  });

  it('takes the KubeSchedulerConfiguration as --config, and --profile as its alias', () => {
    const config = path.join(examples, 'profiles', 'bin-packing.yaml');
    expect(simulateJson('--config', config)).toEqual(simulateJson('--profile', config));
    expect(simulateJson('--config', config, '--profile', config)).toEqual(simulateJson('--config', config));
    const spread = path.join(examples, 'profiles', 'spread.yaml');
    const both = schedlab('simulate', '--cluster', clusterSmall, '--config', config, '--profile', spread);
    expect(both.status).toBe(1);
    expect(both.stderr).toBe('schedlab: --config and --profile name the same setting: give one of them\n');
  });

  it('reports a missing required flag in one line naming the help, not the whole help', () => {
    const r = schedlab('simulate');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "error: required option '--cluster <file>' not specified; see 'schedlab simulate --help'\n",
    );
  });

  it('prints one JSON document whose summary counts match its placements', () => {
    const doc = simulateJson();
    const count = (outcome: string) => doc.placements.filter((p) => p.outcome === outcome).length;
    expect(doc.summary.pods).toBe(doc.placements.length);
    expect(doc.summary.scheduled).toBe(count('scheduled'));
    expect(doc.summary.unschedulable).toBe(count('unschedulable'));
    expect(doc.summary.preempted).toBe(doc.placements.reduce((n, p) => n + (p.victims?.length ?? 0), 0));
    expect(doc.summary.unschedulable).toBeGreaterThan(0);
    const gpu = doc.placements.find((p) => p.pod === 'ml/trainer-run-42');
    expect(gpu).toMatchObject({ outcome: 'unschedulable', node: null, zone: null, priority: 1000 });
    expect(gpu?.message).toMatch(/^0\/9 nodes are available: /);
    const checkout = doc.placements.find((p) => p.pod === 'shop/checkout-5c7b9-0');
    expect(checkout).toMatchObject({
      node: 'node-b2',
      zone: 'eu-west-1b',
      nominatedNode: 'node-b2',
      victims: ['batch/report-builder-1'],
    });
  });

  it('gives identical JSON for the same seed', () => {
    const first = schedlab('simulate', '--cluster', clusterSmall, '-o', 'json', '--seed', '7');
    const second = schedlab('simulate', '--cluster', clusterSmall, '-o', 'json', '--seed', '7');
    expect(first.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  it('prints YAML with the same content as JSON', () => {
    const { parse } = require('yaml') as typeof import('yaml');
    const r = schedlab('simulate', '--cluster', clusterSmall, '--output', 'yaml');
    expect(r.status).toBe(0);
    expect(parse(r.stdout)).toEqual(simulateJson());
  });

  it('applies a scheduler profile: bin packing keeps the result valid and names its source', () => {
    const doc = simulateJson('--profile', path.join(examples, 'profiles', 'bin-packing.yaml'));
    expect(doc.placements.map((p) => p.pod).sort()).toEqual(
      simulateJson()
        .placements.map((p) => p.pod)
        .sort(),
    );
  });

  it('schedules a WaitForFirstConsumer claim and names a missing claim', () => {
    const r = schedlab('simulate', '--cluster', path.join(examples, 'storage-wffc.yaml'), '-o', 'json');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as SimulationDocument;
    const byPod = new Map(doc.placements.map((p) => [p.pod, p]));
    expect(['eu-west-1a', 'eu-west-1b']).toContain(byPod.get('shop/orders-db-0')?.zone);
    expect(byPod.get('analytics/report-render')?.zone).toBe('eu-west-1c');
    expect(byPod.get('analytics/report-export')?.message).toContain(
      'persistentvolumeclaim "export-scratch" not found',
    );
  });

  it('exits 1 naming the file, object and field of a malformed dump', () => {
    const file = writeTemp(
      'bad-node.yaml',
      'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: four}\n',
    );
    const r = schedlab('simulate', '--cluster', file);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        `^schedlab: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: Node n1: status\\.allocatable\\.cpu: `,
      ),
    );
  });

  it('exits 1 with the line of a YAML syntax error', () => {
    const r = schedlab('simulate', '--cluster', writeTemp('broken.yaml', 'items: [\n'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/broken\.yaml: line \d+, column \d+: invalid YAML/);
  });

  it('exits 1 naming the profile and the field of an invalid configuration', () => {
    const profile = writeTemp(
      'profile.yaml',
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    score:\n      enabled: [{name: NoSuchPlugin}]\n',
    );
    const r = schedlab('simulate', '--cluster', clusterSmall, '--config', profile);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`schedlab: ${profile}: profiles[0].plugins.score.enabled[0]: `);
    expect(r.stderr).toContain('NoSuchPlugin');
  });

  it('exits 1 for a missing file and for bad option values', () => {
    const missing = schedlab('simulate', '--cluster', '/nonexistent/dump.yaml');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe('schedlab: /nonexistent/dump.yaml: cannot read: no such file\n');
    expect(schedlab('simulate', '--cluster', clusterSmall, '--seed', 'abc').status).toBe(1);
    expect(
      schedlab('simulate', '--cluster', clusterSmall, '--compatibility-version', '1.12').stderr,
    ).toContain('unsupported version "1.12"');
    expect(schedlab('simulate', '--cluster', clusterSmall, '--output', 'xml').status).toBe(1);
  });

  it('documents the exit codes in --help', () => {
    const r = schedlab('simulate', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Exit codes:\n\s+0 .*\n\s+1 .*usage or input error.*\n\s+2 .*internal error/);
  });
});
