/**
 * The report of a timeline run (examples/timeline/smaller-pod-first.yaml): pending pods by queue
 * over time and the waiting-time histogram, drawn in Chromium.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runAnalysis } from '@schedlab/analysis';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { renderReportHtml, timelineReportOf } from './index';
import { launchChromium } from './testing/chromium';

const examples = path.resolve(__dirname, '../../../examples/timeline');
const read = (file: string) => readFileSync(path.join(examples, file), 'utf8');

describe('timelineReportOf', () => {
  const cluster = parseKubernetesObjects(read('cluster-races.yaml')).objects;
  const timeline = parseYaml(read('smaller-pod-first.yaml')) as unknown;
  const result = runAnalysis('timeline', cluster, { seed: 0 }, { timeline }).result;
  const input = timelineReportOf(result, 'races');

  it('carries the pending series and the histogram of the run', () => {
    expect(input.runs).toEqual([]);
    expect(input.timeline.t).toEqual(result.series.t);
    // p waits from 10 s to 70 s: the 60 s sample finds it pending.
    const at60 = result.series.t.indexOf(60);
    expect(
      input.timeline.active[at60] + input.timeline.backoff[at60] + input.timeline.unschedulable[at60],
    ).toBe(1);
    expect(input.timeline.histogram.count.reduce((a, b) => a + b, 0)).toBe(4);
    expect(input.timeline.summary[1]).toBe('Time to schedule (4 bound): p50 0s, p90 60s, p99 60s, max 60s');
  });

  it('in Chromium: the pending chart and one histogram bar per bucket', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-report-')), 'timeline.html');
    writeFileSync(file, renderReportHtml(input));
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`file://${file}`);
      const chart = page.getByRole('img', { name: 'Pending pods by queue over time' });
      expect(await chart.locator('polygon').count()).toBe(4);
      const bars = page.getByRole('img', { name: 'Waiting time histogram' }).locator('rect');
      expect(await bars.count()).toBe(input.timeline.histogram.count.length);
      expect(await bars.first().locator('title').textContent()).toBe('≤ 0s: 3 pods');
    } finally {
      await context.close();
    }
  });
});
