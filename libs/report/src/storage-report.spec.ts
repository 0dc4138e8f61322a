/**
 * The report's storage section: claims and volumes per zone, and a scenario's data-loss report
 * (examples/storage-lifecycle.yaml after a zone outage and a namespace deletion).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { runAnalysis } from '@schedlab/analysis';
import { storageReport } from '@schedlab/scenarios';
import {
  buildRunReport,
  buildStorageReport,
  renderReportHtml,
  scenarioReportOf,
  type ReportStorage,
} from './index';
import { launchChromium } from './testing/chromium';

const examples = path.resolve(__dirname, '../../../examples');
const cluster = parseKubernetesObjects(
  readFileSync(path.join(examples, 'storage-lifecycle.yaml'), 'utf8'),
).objects;

function scenarioRun() {
  return runAnalysis(
    'scenario',
    cluster,
    { seed: 0 },
    {
      scenario: {
        steps: [
          { zoneOutage: { zone: 'eu-west-1b' } },
          { advanceTime: { seconds: 301 } },
          { deleteNamespace: { name: 'shop' } },
        ],
      },
    },
  ).result.run;
}

function scenarioStorage(): ReportStorage {
  const run = scenarioRun();
  return buildStorageReport(run.world.items, run.storage!.dataLoss)!;
}

describe('buildStorageReport', () => {
  const storage = scenarioStorage();

  it('places each claim in its volume’s zone, with the pods using it; deleted claims are gone', () => {
    expect(storage.volumes.map((v) => [v.zone, v.claim, v.phase])).toEqual([
      ['eu-west-1a', 'ledger/data-ledger-2', 'Bound'],
      ['eu-west-1b', 'ledger/data-ledger-1', 'Bound'],
      ['eu-west-1c', 'ledger/data-ledger-0', 'Bound'],
    ]);
    expect(storage.volumes[1].pods).toEqual(['ledger/ledger-1']);
  });

  it('lists the data-loss report as rows: destroyed with their policy, stranded with the pods waiting', () => {
    expect(storage.dataLoss!.map((r) => [r.fate, r.claim, r.zone, r.policy])).toEqual([
      ['destroyed', 'shop/data-orders-0', 'eu-west-1a', 'Delete'],
      ['destroyed', 'shop/data-orders-1', 'eu-west-1b', 'Delete'],
      ['destroyed', 'shop/data-orders-2', 'eu-west-1c', 'Delete'],
      ['stranded', 'ledger/data-ledger-1', 'eu-west-1b', ''],
    ]);
    expect(storage.dataLoss![3].why).toMatch(
      /unreachable or not ready: node-b1, node-b2; waiting: ledger\/ledger-1$/,
    );
  });

  it('a scenario report carries the storage timeline simulate --scenario prints, and draws it per step', async () => {
    const run = scenarioRun();
    const report = scenarioReportOf(run, '1.37', 'after');
    expect(report.storage?.timeline).toEqual(storageReport(run)!.timeline);
    expect(report.storage?.dataLoss).toEqual(storage.dataLoss);
    const timeline = report.storage!.timeline!;
    const step2 = timeline.find((s) => s.index === 2)!;
    expect(step2.operation).toBe('deleteNamespace shop');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-report-')), 'timeline.html');
    writeFileSync(file, renderReportHtml({ title: 'timeline', runs: [report.run], storage: report.storage }));
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`file://${file}`);
      const section = page.getByRole('region', { name: 'Storage step 2  deleteNamespace shop' });
      const changes = section.getByRole('table', { name: 'Phase changes, 2  deleteNamespace shop' });
      expect(await changes.locator('tbody tr').count()).toBe(step2.transitions.length);
      expect(await changes.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
        step2.transitions[0].object,
        step2.transitions[0].from,
        step2.transitions[0].to,
      ]);
      const events = page.getByRole('table', { name: 'Events, 1  advanceTime 301s' }).locator('tbody tr');
      expect(await events.count()).toBe(timeline.find((s) => s.index === 1)!.events.length);
      expect(await events.first().locator('td').nth(2).textContent()).toBe('FailedScheduling');
    } finally {
      await context.close();
    }
  });

  it('is absent for a cluster without claims or volumes', () => {
    expect(buildStorageReport(cluster.filter((o) => o.kind === 'Node'))).toBeUndefined();
  });

  it('in Chromium: volumes per zone and the data-loss table, as text', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1">';
    const input = {
      title: 'storage',
      runs: [
        buildRunReport({
          label: 'after',
          nodes: [],
          pods: [],
          result: { compatibilityVersion: '1.37', results: [] },
        }),
      ] as [ReturnType<typeof buildRunReport>],
      storage: { ...storage, dataLoss: [...storage.dataLoss!, { ...storage.dataLoss![0], why: hostile }] },
    };
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-report-')), 'storage.html');
    writeFileSync(file, renderReportHtml(input));
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`file://${file}`);
      expect(
        await page.getByRole('region', { name: 'Volumes in zone eu-west-1b' }).locator('tbody tr').count(),
      ).toBe(1);
      const rows = page.getByRole('table', { name: 'Data loss' }).locator('tbody tr');
      expect(await rows.count()).toBe(5);
      expect(await rows.nth(3).locator('td').first().textContent()).toBe('stranded');
      expect(await rows.nth(4).locator('td').last().textContent()).toBe(hostile);
      expect(await page.locator('img').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
