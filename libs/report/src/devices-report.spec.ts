import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { buildClusterState, simulate } from '@schedlab/scheduler';
import { buildRunReport, renderReportHtml, type ReportRun } from './index';
import { launchChromium } from './testing/chromium';

const examples = path.resolve(__dirname, '../../../examples');

function draReport(): ReportRun {
  const { objects } = parseKubernetesObjects(readFileSync(path.join(examples, 'dra-gpus.yaml'), 'utf8'));
  const state = buildClusterState(objects);
  return buildRunReport({
    label: 'dra',
    nodes: state.nodes,
    pods: [...state.runningPods, ...state.pendingPods],
    result: simulate(state),
  });
}

describe('report: DRA devices', () => {
  const run = draReport();

  it('carries the device summary per class and node, and each placed pod its devices', () => {
    expect(
      run.devices?.map((c) => [c.deviceClass, c.nodes.map((n) => `${n.node} ${n.allocated}/${n.total}`)]),
    ).toEqual([
      ['gpu.example.com', ['gpu-a 2/2', 'gpu-b 1/2', 'gpu-c 2/2']],
      ['large-gpu.example.com', ['gpu-c 2/2']],
    ]);
    expect(run.pods.find((p) => p.pod === 'ml/finetune-1')?.devices).toEqual([
      {
        claim: 'ml/finetune-1-gpu-7ht4z',
        request: 'gpu',
        driver: 'gpu.example.com',
        pool: 'gpu-c',
        device: 'gpu-1',
      },
    ]);
    expect(run.pods.find((p) => p.pod === 'ml/sweep-1')?.devices).toBeUndefined();
  });

  it('a cluster without DeviceClasses has no devices', () => {
    const report = buildRunReport({
      label: 'none',
      nodes: [],
      pods: [],
      result: { compatibilityVersion: '1.37', results: [] },
    });
    expect(report.devices).toBeUndefined();
  });

  it('in Chromium: one table per class with a meter per node, and the devices of a selected pod', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-report-')), 'devices.html');
    writeFileSync(file, renderReportHtml({ title: 'dra', runs: [run] }));
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`file://${file}`);
      const gpu = page.getByRole('region', { name: 'Device class gpu.example.com' });
      expect(await gpu.locator('h3').textContent()).toBe('gpu.example.com — 5 of 6 allocated');
      const rows = gpu.getByRole('table', { name: 'Devices of gpu.example.com' }).locator('tbody tr');
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['gpu-b', '1/2', '2', '1', '1', '0']);
      expect(await rows.nth(1).locator('meter').getAttribute('value')).toBe('1');
      await page.getByRole('button', { name: 'Node gpu-c' }).first().click();
      await page.getByRole('button', { name: 'Pod ml/finetune-1' }).click();
      const devices = page.getByRole('table', { name: 'Devices of the pod' }).locator('tbody tr td');
      expect(await devices.allTextContents()).toEqual([
        'ml/finetune-1-gpu-7ht4z',
        'gpu',
        'gpu.example.com/gpu-c/gpu-1',
      ]);
    } finally {
      await context.close();
    }
  });
});
