import { readFileSync } from 'node:fs';
import { parseKubernetesObjects, type Pod } from '@schedlab/k8s';
import { capacity } from '@schedlab/scenarios';
import { example, schedlab, schedlabJson, writeTemp } from '../testing/cli';
import type { CapacityDocument } from './capacity';

const cluster = example('cluster-small.yaml');
const pod = example('templates', 'web-pod.yaml');
const objectsOf = (file: string) => parseKubernetesObjects(readFileSync(file, 'utf8')).objects;

describe('schedlab capacity', () => {
  it('counts the copies that fit, per node, with the FitError that stopped it, as the library does', () => {
    const doc = schedlabJson<CapacityDocument>('capacity', '--cluster', cluster, '--pod-template', pod);
    const library = capacity(
      objectsOf(cluster),
      { podTemplate: objectsOf(pod)[0] as unknown as Pod, maxReplicas: 1000 },
      { seed: 0 },
    );
    expect(doc.pod).toBe('shop/web-extra');
    expect(doc.replicas).toBe(library.replicas);
    expect(Object.fromEntries(doc.perNode.map((n) => [n.node, n.replicas]))).toEqual(library.perNode);
    expect(doc.perNode.reduce((n, x) => n + x.replicas, 0)).toBe(doc.replicas);
    // Every general-purpose node with room gets copies; the tainted and cordoned ones never do.
    expect(doc.perNode.map((n) => n.node)).not.toContain('node-a3-gpu');
    expect(doc.perNode.map((n) => n.node)).not.toContain('node-b3');
    expect(doc.stopReason).toMatch(/^0\/9 nodes are available: .*Insufficient cpu\.$/);
    expect(doc.perNode.find((n) => n.node === 'node-b1')?.zone).toBe('eu-west-1b');
  });

  it('prints the stop reason in short, and the full FitError under -o wide', () => {
    const doc = schedlabJson<CapacityDocument>('capacity', '--cluster', cluster, '--pod-template', pod);
    const table = schedlab('capacity', '--cluster', cluster, '--pod-template', pod);
    expect(table.stdout).toContain('\nstopped: Insufficient cpu (-o wide for the full FitError)\n');
    const wide = schedlab('capacity', '--cluster', cluster, '--pod-template', pod, '-o', 'wide');
    expect(wide.stdout).toContain(`\nstopped: ${doc.stopReason}\n`);
  });

  it('still takes the deprecated --pod, with a deprecation notice, and needs one of them', () => {
    const old = schedlab('capacity', '--cluster', cluster, '--pod', pod, '-o', 'json');
    expect(old.status).toBe(0);
    expect(old.stderr).toBe('schedlab: Flag --pod has been deprecated, use --pod-template instead\n');
    expect(JSON.parse(old.stdout)).toEqual(
      schedlabJson<CapacityDocument>('capacity', '--cluster', cluster, '--pod-template', pod),
    );
    const missing = schedlab('capacity', '--cluster', cluster);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      "error: required option '--pod-template <file>' not specified; see 'schedlab capacity --help'\n",
    );
  });

  it('stops at --max-replicas and says so in the table', () => {
    const r = schedlab('capacity', '--cluster', cluster, '--pod-template', pod, '--max-replicas', '2');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^NODE\s+ZONE\s+REPLICAS$/);
    expect(r.stdout).toContain('2 copies of shop/web-extra fit');
    expect(r.stdout).toContain('stopped at --max-replicas 2');
    const doc = schedlabJson<CapacityDocument>(
      'capacity',
      '--cluster',
      cluster,
      '--pod-template',
      pod,
      '--max-replicas',
      '2',
    );
    expect(doc).toMatchObject({ replicas: 2, maxReplicas: 2, stopReason: 'maxReplicas' });
  });

  it('exits 1 for a template that is not one Pod, and for a bad --max-replicas', () => {
    const node = writeTemp('node.yaml', 'apiVersion: v1\nkind: Node\nmetadata: {name: n}\n');
    const r = schedlab('capacity', '--cluster', cluster, '--pod-template', node);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`schedlab: ${node}: expected exactly one Pod, got Node\n`);
    expect(
      schedlab('capacity', '--cluster', cluster, '--pod-template', pod, '--max-replicas', '0').status,
    ).toBe(1);
  });
});
