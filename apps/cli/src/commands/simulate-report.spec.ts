/**
 * `schedlab simulate --report` end to end: the CLI writes the HTML file, and a real headless
 * Chromium (Debian's /usr/bin/chromium, driven by playwright-core) renders and operates it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { ReportInput } from '@schedlab/report';
import type { SimulationDocument } from '../output/placements';

const workspace = path.resolve(__dirname, '../../../..');
const bin = path.join(workspace, 'apps/cli/bin/schedlab.js');
const clusterSmall = path.join(workspace, 'examples/cluster-small.yaml');
const CHROMIUM = '/usr/bin/chromium';

function schedlab(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
}

describe('schedlab simulate --report', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'schedlab-report-'));
  const reportFile = path.join(dir, 'report.html');
  let document: SimulationDocument;

  beforeAll(() => {
    const r = schedlab('simulate', '--cluster', clusterSmall, '--output', 'json', '--report', reportFile);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    document = JSON.parse(r.stdout) as SimulationDocument;
  });

  it('writes one self-contained page: data embedded as JSON, nothing fetched from elsewhere', () => {
    const html = readFileSync(reportFile, 'utf8');
    expect(html).toContain('<script type="application/json" id="report-data">');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
    // The SVG namespace the charts are created in is a name, never fetched.
    expect(html.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
  });

  it('with --scenario: the cluster after the last step, its volumes per zone and the data-loss report', () => {
    const file = path.join(dir, 'zone-outage.html');
    const r = schedlab(
      'simulate',
      '--cluster',
      path.join(workspace, 'examples/storage-lifecycle.yaml'),
      '--scenario',
      path.join(workspace, 'examples/scenarios/storage-zone-outage.yaml'),
      '--report',
      file,
    );
    expect(r.status).toBe(0);
    const data = JSON.parse(
      /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(
        readFileSync(file, 'utf8'),
      )![1],
    ) as ReportInput;
    const [run] = data.runs;
    // The eu-west-1b replicas were evicted and wait for their volumes: pending in the report.
    expect(
      run.pods
        .filter((p) => p.node === null)
        .map((p) => p.pod)
        .sort(),
    ).toEqual(['ledger/ledger-1', 'shop/orders-1']);
    const zones = new Map<string, number>();
    for (const v of data.storage!.volumes) zones.set(v.zone, (zones.get(v.zone) ?? 0) + 1);
    expect([...zones]).toEqual([
      ['eu-west-1a', 2],
      ['eu-west-1b', 2],
      ['eu-west-1c', 2],
    ]);
    expect(data.storage!.dataLoss!.map((d) => [d.fate, d.claim, d.zone])).toEqual([
      ['stranded', 'ledger/data-ledger-1', 'eu-west-1b'],
      ['stranded', 'shop/data-orders-1', 'eu-west-1b'],
    ]);
  });

  it('names the path when the report cannot be written', () => {
    const r = schedlab(
      'simulate',
      '--cluster',
      clusterSmall,
      '--report',
      path.join(dir, 'missing-dir', 'r.html'),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--report .*missing-dir\/r\.html: cannot write the report \(ENOENT\)/);
  });

  describe('in headless Chromium', () => {
    let browser: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      // A fresh profile directory per run: nothing carried over between runs.
      browser = await chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), 'chromium-')), {
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1400, height: 1000 },
      });
      page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (req) => requests.push(req.url()));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${reportFile}`);
      expect(errors).toEqual([]);
      expect(requests).toEqual([`file://${reportFile}`]);
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('draws one cell per node, grouped in one region per zone', async () => {
      const zones = page.getByRole('region', { name: /^Zone / });
      expect(await zones.count()).toBe(3);
      expect(
        await page
          .getByRole('region', { name: 'Zone eu-west-1a' })
          .getByRole('button', { name: /^Node / })
          .count(),
      ).toBe(3);
      expect(await page.getByRole('button', { name: /^Node / }).count()).toBe(9);
      await expect(page.getByRole('button', { name: /^Node node-b3, .*cordoned$/ }).count()).resolves.toBe(1);
    });

    it('shows a pending pod exact FitError when it is clicked, and its per-node filter breakdown', async () => {
      const postgres = document.placements.find((p) => p.pod === 'db/postgres-1')!;
      expect(postgres.outcome).toBe('unschedulable');
      const pending = page
        .getByRole('region', { name: 'Pending pods' })
        .or(page.locator('section[aria-label="Pending pods"]'));
      await pending.getByRole('button', { name: 'Pending pod db/postgres-1' }).click();
      const details = page.locator('section[aria-label="Pod details"]');
      expect(await details.getByLabel('Scheduling message').textContent()).toBe(postgres.message);
      const filterRows = details.getByRole('table', { name: 'Filter results' }).locator('tbody tr');
      expect(await filterRows.count()).toBe(9);
      expect(await filterRows.filter({ hasText: 'node-c3-db' }).textContent()).toContain(
        'node(s) had untolerated taint(s)',
      );
      mkdirSync(path.join(workspace, 'tmp'), { recursive: true });
      await page.screenshot({ path: path.join(workspace, 'tmp/report-cluster-small.png'), fullPage: true });
    });

    it('groups the pending pods by reason: one group per distinct message', async () => {
      const pendingMessages = new Set(
        document.placements.filter((p) => p.node === null).map((p) => p.message),
      );
      expect(await page.locator('section[aria-label="Pending pods"] [role="group"]').count()).toBe(
        pendingMessages.size,
      );
    });

    it('lists the pods of a node when the node is clicked', async () => {
      await page.getByRole('button', { name: /^Node node-b2,/ }).click();
      const panel = page.locator('section[aria-label="Pods on node node-b2"]');
      expect(await panel.textContent()).toContain('shop/checkout-5c7b9-0');
      expect(await panel.textContent()).not.toContain('batch/report-builder-1'); // its preemption victim
    });

    it('switches the heat values between cpu and memory', async () => {
      const valuesOf = () =>
        page
          .getByRole('button', { name: /^Node / })
          .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-value')));
      const cpu = await valuesOf();
      expect(await page.getByRole('button', { name: /^Node node-a1, cpu \d+% requested/ }).count()).toBe(1);
      await page.getByRole('button', { name: 'Memory', exact: true }).click();
      expect(
        await page.getByRole('button', { name: 'Memory', exact: true }).getAttribute('aria-pressed'),
      ).toBe('true');
      const memory = await valuesOf();
      expect(await page.getByRole('button', { name: /^Node node-a1, memory \d+% requested/ }).count()).toBe(
        1,
      );
      expect(memory).toHaveLength(9);
      expect(memory).not.toEqual(cpu);
      await page.getByRole('button', { name: 'CPU', exact: true }).click();
      expect(await valuesOf()).toEqual(cpu);
    });
  });
});
