import { example, schedlab, schedlabJson, writeTemp } from '../testing/cli';
import type { NodesNeededDocument } from './nodes-needed';

const cluster = example('cluster-small.yaml');
const templates = example('templates', 'node-templates.yaml');

describe('schedlab nodes-needed', () => {
  it('buys one GPU node for the trainer and one node in a new zone for the anti-affine cache', () => {
    const doc = schedlabJson<NodesNeededDocument>(
      'nodes-needed',
      '--cluster',
      cluster,
      '--templates',
      templates,
    );
    expect(doc.add).toEqual([
      { template: 'm5-xlarge', count: 1, hourlyPrice: 0.192, hourlyCost: 0.192 },
      { template: 'g4dn-2xlarge', count: 1, hourlyPrice: 0.752, hourlyCost: 0.752 },
    ]);
    expect(doc.hourlyCost).toBe(0.944);
    expect(doc.scheduled).toEqual(['ml/trainer-run-42', 'shop/cache-3']);
    expect(doc.limited).toBe(false);
    // postgres-1 wants the database pool; neither template has its label.
    expect(doc.unhostable).toEqual([
      {
        pod: 'db/postgres-1',
        reasons: [
          {
            template: 'm5-xlarge',
            reason: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
          },
          {
            template: 'g4dn-2xlarge',
            reason: '0/1 nodes are available: 1 node(s) had untolerated taint(s).',
          },
        ],
      },
    ]);
  });

  it('prints the purchase, its cost and the unhostable pods', () => {
    const r = schedlab('nodes-needed', '--cluster', cluster, '--templates', templates);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^TEMPLATE\s+COUNT\s+PRICE\/HOUR\s+COST\/HOUR\nm5-xlarge\s+1\s+0.192\s+0.192\ng4dn-2xlarge\s+1\s+0.752\s+0.752\n/,
    );
    expect(r.stdout).toContain(
      '2 nodes, 0.944 per hour: 2 pending pods schedule (ml/trainer-run-42, shop/cache-3)',
    );
    expect(r.stdout).toMatch(
      /db\/postgres-1\s+m5-xlarge\s+node\(s\) didn't match Pod's node affinity\/selector\n/,
    );
    expect(r.stdout).not.toContain('0/1 nodes are available'); // the full FitError is -o wide's
    const wide = schedlab('nodes-needed', '--cluster', cluster, '--templates', templates, '-o', 'wide');
    expect(wide.stdout).toMatch(
      /g4dn-2xlarge\s+node\(s\) had untolerated taint\(s\)\s+0\/1 nodes are available: 1 node\(s\) had untolerated taint\(s\)\.\n/,
    );
  });

  it('exits 1 naming the template and field of a bad templates file', () => {
    const noPrice = writeTemp('t.yaml', 'templates:\n  - name: a\n    allocatable: {cpu: "4"}\n');
    const r = schedlab('nodes-needed', '--cluster', cluster, '--templates', noPrice);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `schedlab: ${noPrice}: templates[0].hourlyPrice: Required value: the price per node-hour\n`,
    );
    const badCpu = writeTemp(
      't2.yaml',
      'templates:\n  - {name: a, hourlyPrice: 1, allocatable: {cpu: four}}\n',
    );
    expect(schedlab('nodes-needed', '--cluster', cluster, '--templates', badCpu).stderr).toContain(
      `${badCpu}: templates[0].allocatable.cpu: `,
    );
    const empty = writeTemp('t3.yaml', 'templates: []\n');
    expect(schedlab('nodes-needed', '--cluster', cluster, '--templates', empty).stderr).toContain(
      'templates: Required value',
    );
  });
});
