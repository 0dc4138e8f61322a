import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { buildClusterState, simulate } from '@schedlab/scheduler';
import { buildRunReport, renderReportHtml, type ReportRun } from './index';
import { launchChromium } from './testing/chromium';

const examples = path.resolve(__dirname, '../../../examples');

function draReport(extra = '', compatibilityVersion?: string): ReportRun {
  const yaml = readFileSync(path.join(examples, 'dra-gpus.yaml'), 'utf8') + extra;
  const state = buildClusterState(parseKubernetesObjects(yaml).objects);
  return buildRunReport({
    label: 'dra',
    nodes: state.nodes,
    pods: [...state.runningPods, ...state.pendingPods],
    result: simulate(state, compatibilityVersion ? { compatibilityVersion } : {}),
  });
}

/** A gpu-b device with binding conditions: never allocated without DRADeviceBindingConditions (1.35). */
const attachable = `
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: gpu-b-attachable }
spec:
  driver: gpu.example.com
  nodeName: gpu-b
  pool: { name: gpu-b-attachable, generation: 1, resourceSliceCount: 1 }
  devices:
    - { name: gpu-0, bindingConditions: [Attached], attributes: { model: { string: a100 } }, capacity: { memory: { value: 40Gi } } }
`;

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
      expect(await gpu.locator('thead th').allTextContents()).toEqual([
        'Node',
        'In use',
        'Total',
        'Allocated',
        'Free',
        'Unavailable free',
        'Tainted free',
      ]);
      expect(await rows.nth(1).locator('td').allTextContents()).toEqual([
        'gpu-b',
        '1/2',
        '2',
        '1',
        '1',
        '0',
        '0',
      ]);
      expect(await rows.nth(1).locator('meter').getAttribute('value')).toBe('1');
      await page.getByRole('button', { name: 'Node gpu-c' }).first().click();
      await page.getByRole('button', { name: 'Pod ml/finetune-1' }).click();
      const devices = page.getByRole('table', { name: 'Devices of the pod' }).locator('tbody tr td');
      expect(await devices.allTextContents()).toEqual([
        'ml/finetune-1-gpu-7ht4z',
        'gpu',
        'gpu.example.com/gpu-c/gpu-1',
      ]);

      const blocked = path.join(path.dirname(file), 'unavailable.html');
      writeFileSync(blocked, renderReportHtml({ title: 'dra', runs: [draReport(attachable, '1.35')] }));
      const other = await context.newPage();
      await other.goto(`file://${blocked}`);
      const gpuB = other
        .getByRole('table', { name: 'Devices of gpu.example.com' })
        .locator('tbody tr')
        .filter({ hasText: 'gpu-b' });
      expect(await gpuB.locator('td').allTextContents()).toEqual(['gpu-b', '1/3', '3', '1', '2', '1', '0']);

      // A run the service stored before unavailableFree was counted: the cell is left blank.
      const stored = path.join(path.dirname(file), 'stored.html');
      const before = run.devices?.map((c) => ({
        ...c,
        nodes: c.nodes.map(({ unavailableFree: _, ...n }) => n),
      })) as ReportRun['devices'];
      writeFileSync(stored, renderReportHtml({ title: 'dra', runs: [{ ...run, devices: before }] }));
      const old = await context.newPage();
      await old.goto(`file://${stored}`);
      const oldRow = old
        .getByRole('table', { name: 'Devices of gpu.example.com' })
        .locator('tbody tr')
        .filter({ hasText: 'gpu-b' });
      expect(await oldRow.locator('td').allTextContents()).toEqual(['gpu-b', '1/2', '2', '1', '1', '', '0']);
    } finally {
      await context.close();
    }
  });

  it('counts the free device the release cannot allocate apart (binding conditions at 1.35)', () => {
    const gpuB = (version: string) =>
      draReport(attachable, version)
        .devices?.find((c) => c.deviceClass === 'gpu.example.com')
        ?.nodes.find((n) => n.node === 'gpu-b');
    expect(gpuB('1.35')).toMatchObject({ total: 3, free: 2, unavailableFree: 1 });
    expect(gpuB('1.36')).toMatchObject({ total: 3, unavailableFree: 0 });
  });
});
