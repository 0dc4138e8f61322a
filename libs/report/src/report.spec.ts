import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { buildClusterState, simulate } from '@schedlab/scheduler';
import { buildRunReport, renderReportHtml, type ReportInput, type ReportRun } from './index';
import { launchChromium } from './testing/chromium';

const examples = path.resolve(__dirname, '../../../examples');

function smallClusterReport(): ReportRun {
  const { objects } = parseKubernetesObjects(readFileSync(path.join(examples, 'cluster-small.yaml'), 'utf8'));
  const state = buildClusterState(objects);
  const result = simulate(state, { seed: 0 });
  return buildRunReport({
    label: 'small',
    nodes: state.nodes,
    pods: [...state.runningPods, ...state.pendingPods],
    result,
  });
}

const embeddedData = (html: string): unknown =>
  JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]);

describe('buildRunReport', () => {
  const run = smallClusterReport();

  it('counts what is on each node once the run is over: new bindings in, preemption victims out', () => {
    const b2 = run.nodes.find((n) => n.name === 'node-b2')!;
    expect(b2.pods).toContain('shop/checkout-5c7b9-0');
    expect(b2.pods).not.toContain('batch/report-builder-1');
    expect(b2.allocatable).toEqual({ cpu: 3920, memory: 15 * 1024 ** 3 });
    expect(b2.zone).toBe('eu-west-1b');
    expect(run.nodes.find((n) => n.name === 'node-b3')).toMatchObject({
      unschedulable: true,
      pods: [],
      requested: { cpu: 0, memory: 0 },
    });
  });

  it('keeps per-node filter failures and plugin scores for each pod', () => {
    const postgres = run.pods.find((p) => p.pod === 'db/postgres-1')!;
    expect(postgres.node).toBeNull();
    expect(postgres.filters).toHaveLength(9);
    expect(postgres.filters.find((f) => f.node === 'node-b3')).toEqual({
      node: 'node-b3',
      plugin: 'NodeUnschedulable',
      reasons: ['node(s) were unschedulable'],
    });
    const scheduled = run.pods.find((p) => p.pod === 'monitoring/metrics-exporter')!;
    // Sorted best first; the engine picked one of the best-scored nodes (seeded tie-break).
    const best = scheduled.scores.filter((s) => s.total === scheduled.scores[0].total).map((s) => s.node);
    expect(best).toContain('node-c1');
    const total = Object.values(scheduled.scores[0].plugins).reduce((s, v) => s + v, 0);
    expect(total).toBe(scheduled.scores[0].total);
  });

  it('shows a scheduled pod its filter failures grouped (compact explanation), counting the same nodes a full record lists', () => {
    const { objects } = parseKubernetesObjects(
      readFileSync(path.join(examples, 'cluster-small.yaml'), 'utf8'),
    );
    const state = buildClusterState(objects);
    const fullRun = buildRunReport({
      label: 'full',
      nodes: state.nodes,
      pods: [...state.runningPods, ...state.pendingPods],
      result: simulate(state, { seed: 0, explain: 'full' }),
    });
    const compact = run.pods.find((p) => p.pod === 'shop/web-7d9f8b6c5-z7rjs')!;
    const full = fullRun.pods.find((p) => p.pod === 'shop/web-7d9f8b6c5-z7rjs')!;
    expect(compact.node).not.toBeNull();
    expect(compact.filters.every((f) => /^\d+ nodes?$/.test(f.node))).toBe(true);
    expect(compact.failedNodes).toBe(full.filters.length);
    expect(compact.filters.find((f) => f.plugin === 'NodeResourcesFit')).toEqual({
      node: '3 nodes',
      plugin: 'NodeResourcesFit',
      reasons: ['Insufficient cpu'],
    });
    expect(compact.scores).toEqual(full.scores);
  });

  it('keeps only the best scored nodes per pod, always with the chosen one, and says how many were scored', () => {
    const { objects } = parseKubernetesObjects(
      readFileSync(path.join(examples, 'cluster-small.yaml'), 'utf8'),
    );
    const state = buildClusterState(objects);
    const result = simulate(state, { seed: 0 });
    const short = buildRunReport({
      label: 's',
      nodes: state.nodes,
      pods: [...state.runningPods, ...state.pendingPods],
      result,
      maxScoresPerPod: 2,
    });
    const exporter = short.pods.find((p) => p.pod === 'monitoring/metrics-exporter')!;
    const full = run.pods.find((p) => p.pod === 'monitoring/metrics-exporter')!;
    expect(exporter.scoredNodes).toBe(full.scores.length);
    expect(exporter.scoredNodes).toBeGreaterThan(2);
    expect(exporter.scores).toHaveLength(2);
    expect(exporter.scores.map((s) => s.node)).toContain('node-c1');
  });
});

describe('renderReportHtml', () => {
  const hostile = '</script><img src=x onerror="window.__pwned=1">';
  const run = smallClusterReport();
  const poisoned: ReportRun = {
    ...run,
    label: hostile,
    pods: run.pods.map((p) =>
      p.pod === 'db/postgres-1' ? { ...p, pod: `db/${hostile}`, message: `${hostile}\u2028&<!--` } : p,
    ),
  };

  it('embeds the data so that no string from the cluster can close the script or add markup', () => {
    const input: ReportInput = { title: `report ${hostile}`, runs: [poisoned] };
    const html = renderReportHtml(input);
    expect(html).not.toContain('<img');
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the data element and the page script
    expect(html).toContain(
      '<title>report &lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;</title>',
    );
    expect(embeddedData(html)).toEqual(input);
  });

  it('in Chromium: hostile names stay text, and a comparison shows before, after and the pods that moved', async () => {
    const before = run;
    const after: ReportRun = {
      ...poisoned,
      nodes: poisoned.nodes.map((n) =>
        n.name === 'node-c1' ? { ...n, pods: [...n.pods, `db/${hostile}`] } : n,
      ),
      pods: poisoned.pods.map((p) =>
        p.pod === `db/${hostile}` ? { ...p, node: 'node-c1', message: undefined } : p,
      ),
    };
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-report-')), 'compare.html');
    writeFileSync(file, renderReportHtml({ title: 'compare', runs: [before, after] }));
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`file://${file}`);
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(
        await page
          .locator('section[aria-label^="Run "]')
          .evaluateAll((s) => s.map((x) => x.getAttribute('aria-label'))),
      ).toEqual(['Run Before: small', `Run After: ${hostile}`]);
      const moved = page.getByRole('table', { name: 'Moved pods' }).locator('tbody tr');
      expect(await moved.count()).toBe(1);
      expect(await moved.filter({ hasText: hostile }).locator('td').allTextContents()).toEqual([
        `db/${hostile}`,
        '<pending>',
        'node-c1',
      ]);
    } finally {
      await context.close();
    }
  });
});
