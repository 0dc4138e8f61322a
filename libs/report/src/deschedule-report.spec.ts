/**
 * The report of a descheduling what-if (examples/descheduler/topology-spread.yaml): the cluster
 * before and after, and the evictions with where each pod went, drawn in Chromium.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runAnalysis } from '@schedlab/analysis';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { descheduleReportOf, renderReportHtml } from './index';
import { launchChromium } from './testing/chromium';

const examples = path.resolve(__dirname, '../../../examples/descheduler');
const read = (file: string) => readFileSync(path.join(examples, file), 'utf8');

function spreadReport() {
  const cluster = parseKubernetesObjects(read('topology-spread.yaml')).objects;
  const policy = parseYaml(read('topology-spread-policy.yaml')) as unknown;
  const outcome = runAnalysis('deschedule', cluster, { seed: 0 }, { policy });
  const { items: _after, ...stored } = outcome.result;
  return {
    stored,
    input: descheduleReportOf(stored, outcome.compatibilityVersion, 'spread', 'topology-spread'),
  };
}

describe('descheduleReportOf', () => {
  const { stored, input } = spreadReport();

  it('draws the cluster before and after from the stored figures, the replacements with their explanation', () => {
    const [before, after] = input.runs as [(typeof input.runs)[0], (typeof input.runs)[0]];
    const node = (run: typeof before, name: string) => run.nodes.find((n) => n.name === name)!;
    expect(node(before, 'node-a1')).toMatchObject({ requested: { cpu: 750 }, allocatable: { cpu: 4000 } });
    expect(node(before, 'node-a1').pods).toEqual([
      'shop/api-5c9f7-b7k2m',
      'shop/api-5c9f7-c3n8p',
      'shop/api-5c9f7-d9q4r',
    ]);
    expect(node(after, 'node-a1')).toMatchObject({ requested: { cpu: 250 }, pods: ['shop/api-5c9f7-d9q4r'] });
    const replacements = stored.evictions.map((e) => e.replacement);
    expect(after.pods.map((p) => p.pod)).toEqual(replacements);
    expect(after.pods.map((p) => p.node)).toEqual(stored.evictions.map((e) => e.newNode));
    // The compact explanation: zone eu-west-1a's nodes failed PodTopologySpread, the rest were scored.
    expect(after.pods[0].filters).toEqual([
      {
        node: '2 nodes',
        plugin: 'PodTopologySpread',
        reasons: ["node(s) didn't match pod topology spread constraints"],
      },
    ]);
    expect(after.pods[0].scoredNodes).toBe(2);
    expect(input.descheduling!.spread.before[0].skew).toBe(4);
    expect(input.descheduling!.spread.after[0].skew).toBe(0);
  });

  it('in Chromium: the evictions, spread and violations tables, and both heat maps', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-report-')), 'deschedule.html');
    writeFileSync(file, renderReportHtml(input));
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`file://${file}`);
      const rows = page.getByRole('table', { name: 'Evictions' }).locator('tbody tr');
      expect(await rows.count()).toBe(2);
      expect(await rows.first().locator('td').allTextContents()).toEqual([
        '1',
        'shop/api-5c9f7-c3n8p',
        'RemovePodsViolatingTopologySpreadConstraint',
        [stored.evictions[0].reason, stored.evictions[0].detail].filter(Boolean).join(': '),
        'node-a1',
        stored.evictions[0].newNode!,
        stored.evictions[0].replacement!,
      ]);
      const spread = page
        .getByRole('table', { name: 'Topology spread before and after' })
        .locator('tbody td');
      expect(await spread.nth(1).textContent()).toBe('4 → 0');
      const violations = page.getByRole('table', { name: 'Violations before and after' }).locator('tbody tr');
      expect(await violations.nth(3).locator('td').allTextContents()).toEqual(['topologySpread', '5', '0']);
      const summary = (run: string) =>
        page
          .getByRole('region', { name: `Run ${run}` })
          .locator('p.summary')
          .first()
          .textContent();
      expect(await summary('Before: topology-spread')).toBe('4 nodes, 6 pods bound (kube-scheduler 1.37)');
      expect(await summary('After: topology-spread once descheduled')).toBe(
        '4 nodes, 6 pods bound, 2 replacements scheduled (0 pending) (kube-scheduler 1.37)',
      );
      const cell = (run: string) =>
        page.getByRole('region', { name: `Run ${run}` }).locator('[data-node="node-a1"]');
      expect(await cell('Before: topology-spread').getAttribute('data-value')).toBe('19');
      expect(await cell('After: topology-spread once descheduled').getAttribute('data-value')).toBe('6');
    } finally {
      await context.close();
    }
  });
});
