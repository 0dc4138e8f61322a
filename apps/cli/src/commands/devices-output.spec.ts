import { DRA_GPUS_DEVICES, DRA_GPUS_POD_DEVICES } from '@schedlab/testing';
import type { SimulationDocument } from '../output/placements';
import { readFileSync } from 'node:fs';
import { example, schedlab, schedlabJson, writeTemp } from '../testing/cli';

const draExample = example('dra-gpus.yaml');

describe('schedlab simulate: DRA devices of dra-gpus.yaml', () => {
  let doc: SimulationDocument;
  beforeAll(() => {
    doc = schedlabJson<SimulationDocument>('simulate', '--cluster', draExample);
  });

  it("lists each placed pod's generated claim with the device it was allocated", () => {
    const devicesOf = Object.fromEntries(doc.placements.map((p) => [p.pod, p.devices ?? null]));
    expect(devicesOf).toEqual(
      Object.fromEntries(
        Object.entries(DRA_GPUS_POD_DEVICES).map(([pod, d]) => [
          pod,
          d && [
            { claim: d.claim, request: 'gpu', driver: 'gpu.example.com', pool: d.pool, device: d.device },
          ],
        ]),
      ),
    );
    expect(doc.placements.find((p) => p.pod === 'ml/sweep-1')).toMatchObject({
      outcome: 'unschedulable',
      message: expect.stringContaining('4 cannot allocate all claims'),
    });
  });

  it('summarizes devices per class and node after scheduling (the CEL class selects 80Gi GPUs only)', () => {
    expect(doc.devices).toEqual(DRA_GPUS_DEVICES);
  });

  it('prints a Devices table per class after the placements; -o wide per node, with the allocations', () => {
    const table = schedlab('simulate', '--cluster', draExample);
    expect(table.status).toBe(0);
    const lines = table.stdout.split('\n');
    const at = lines.indexOf('Devices by class');
    expect(at).toBeGreaterThan(lines.findIndex((l) => l.startsWith('ml/sweep-1 ')));
    expect(lines.slice(at + 1, at + 4).map((l) => l.split(/\s+/))).toEqual([
      ['CLASS', 'NODES', 'TOTAL', 'ALLOCATED', 'FREE', 'UNAVAILABLE', 'FREE', 'TAINTED', 'FREE'],
      ['gpu.example.com', '3', '6', '5', '1', '0', '0'],
      ['large-gpu.example.com', '1', '2', '2', '0', '0', '0'],
    ]);
    expect(table.stdout).not.toContain('Devices allocated');

    const wide = schedlab('simulate', '--cluster', draExample, '-o', 'wide').stdout.split('\n');
    const byNode = wide.indexOf('Devices by class and node');
    expect(wide.slice(byNode + 2, byNode + 6).map((l) => l.split(/\s+/))).toEqual([
      ['gpu.example.com', 'gpu-a', '2', '2', '0', '0', '0'],
      ['gpu.example.com', 'gpu-b', '2', '1', '1', '0', '0'],
      ['gpu.example.com', 'gpu-c', '2', '2', '0', '0', '0'],
      ['large-gpu.example.com', 'gpu-c', '2', '2', '0', '0', '0'],
    ]);
    const allocated = wide.indexOf('Devices allocated');
    expect(wide.slice(allocated + 2, allocated + 6).map((l) => l.split(/\s+/))).toEqual([
      ['ml/train-1', 'ml/train-1-gpu-h4tqm', 'gpu', 'gpu.example.com/gpu-c/gpu-0'],
      ['ml/train-2', 'ml/train-2-gpu-4g6pz', 'gpu', 'gpu.example.com/gpu-b/gpu-0'],
      ['ml/train-3', 'ml/train-3-gpu-jwcvl', 'gpu', 'gpu.example.com/gpu-a/gpu-1'],
      ['ml/finetune-1', 'ml/finetune-1-gpu-7ht4z', 'gpu', 'gpu.example.com/gpu-c/gpu-1'],
    ]);
  });

  it('a cluster without DeviceClasses has no devices in the document or the table', () => {
    const plain = schedlabJson<SimulationDocument>('simulate', '--cluster', example('cluster-small.yaml'));
    expect(plain.devices).toBeUndefined();
    expect(plain.placements.some((p) => p.devices)).toBe(false);
  });
});

describe('schedlab simulate --report: DRA devices', () => {
  it("embeds the run's device summary and each placed pod's devices", () => {
    const file = writeTemp('devices.html', '');
    expect(schedlab('simulate', '--cluster', draExample, '--report', file).status).toBe(0);
    const html = readFileSync(file, 'utf8');
    const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json ?? 'null') as {
      runs: { devices?: unknown; pods: { pod: string; devices?: { pool: string; device: string }[] }[] }[];
    };
    expect(data.runs[0].devices).toEqual(DRA_GPUS_DEVICES);
    const devices = Object.fromEntries(
      data.runs[0].pods.map((p) => [p.pod, p.devices?.map((d) => `${d.pool}/${d.device}`) ?? null]),
    );
    expect(devices).toEqual(
      Object.fromEntries(
        Object.entries(DRA_GPUS_POD_DEVICES).map(([pod, d]) => [pod, d && [`${d.pool}/${d.device}`]]),
      ),
    );
  });
});

describe('schedlab explain: a placed pod with a claim', () => {
  it("prints the claim's devices under the result", () => {
    const r = schedlab('explain', '--cluster', draExample, '--pod', 'ml/finetune-1');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.slice(1, 5)).toEqual([
      'Result: scheduled on gpu-c (zone-b)',
      'Devices (allocated at Reserve):',
      '  CLAIM                    REQUEST  DEVICE',
      '  ml/finetune-1-gpu-7ht4z  gpu      gpu.example.com/gpu-c/gpu-1',
    ]);
  });

  it('an unschedulable pod shows no devices', () => {
    const r = schedlab('explain', '--cluster', draExample, '--pod', 'ml/sweep-1');
    expect(r.stdout).not.toContain('Devices');
    expect(r.stdout).toContain('cannot allocate all claims');
  });
});

describe('schedlab simulate --scenario: devices of the final world', () => {
  const gpuPod = (name: string) => `
        - apiVersion: v1
          kind: Pod
          metadata: { name: ${name}, namespace: ml }
          spec:
            resourceClaims: [{ name: gpu, resourceClaimTemplateName: one-gpu }]
            containers: [{ name: t, image: x, resources: { requests: { cpu: '1' }, claims: [{ name: gpu }] } }]`;
  const scenario = writeTemp(
    'two-gpu-pods.yaml',
    `steps:
  - apply:
      objects:${gpuPod('train-4')}${gpuPod('train-5')}
  - deletePod: { namespace: ml, name: train-2 }
`,
  );

  it('no device is given twice, a deleted pod frees its device, and the summary counts the holders', () => {
    const doc = schedlabJson<SimulationDocument>('simulate', '--cluster', draExample, '--scenario', scenario);
    const held = doc.placements.flatMap((p) => (p.devices ?? []).map((d) => `${d.pool}/${d.device}`));
    expect(new Set(held).size).toBe(held.length);
    expect(held).not.toContain('gpu-a/gpu-0'); // serving-0's, running before the scenario
    // train-2 was deleted in step 1: train-5, pending after step 0, got its device.
    expect(doc.placements.find((p) => p.pod === 'ml/train-2')).toBeUndefined();
    expect(doc.placements.find((p) => p.pod === 'ml/train-5')?.devices?.[0]).toMatchObject({
      pool: DRA_GPUS_POD_DEVICES['ml/train-2']?.pool,
      device: DRA_GPUS_POD_DEVICES['ml/train-2']?.device,
    });
    const gpus = doc.devices?.find((c) => c.deviceClass === 'gpu.example.com');
    const allocated = gpus?.nodes.reduce((n, c) => n + c.allocated, 0);
    // Every gpu.example.com device: the placements' five and serving-0's.
    expect(allocated).toBe(held.length + 1);
    expect(allocated).toBe(6);
    const table = schedlab('simulate', '--cluster', draExample, '--scenario', scenario).stdout.split('\n');
    const at = table.indexOf('Devices by class');
    expect(table[at + 2].split(/\s+/)).toEqual(['gpu.example.com', '3', '6', '6', '0', '0', '0']);
  });
});

describe('schedlab simulate: a DeviceTaintRule in the dump (DRADeviceTaintRules, on from 1.37)', () => {
  const rule = `
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: { name: gpu-b-maintenance }
spec:
  deviceSelector: { driver: gpu.example.com, pool: gpu-b }
  taint: { key: maintenance, value: 'true', effect: NoSchedule }
`;

  it('keeps every pod off the tainted pool at 1.37 and is ignored at 1.36', () => {
    const file = writeTemp('tainted.yaml', readFileSync(draExample, 'utf8') + rule);
    const pools = (version: string) =>
      schedlabJson<SimulationDocument>('simulate', '--cluster', file, '--compatibility-version', version)
        .placements.flatMap((p) => p.devices ?? [])
        .map((d) => d.pool);
    expect(pools('1.37')).not.toContain('gpu-b');
    expect(pools('1.36')).toContain('gpu-b');
  });

  it('names the field of a rule without a taint', () => {
    const file = writeTemp(
      'bad-rule.yaml',
      readFileSync(draExample, 'utf8') + rule.replace(/ {2}taint: .*\n/, ''),
    );
    const r = schedlab('simulate', '--cluster', file);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('DeviceTaintRule gpu-b-maintenance');
    expect(r.stderr).toContain('spec.taint');
  });
});

describe('schedlab simulate: free devices the release cannot allocate', () => {
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
    - name: gpu-0
      bindingConditions: [Attached]
      attributes: { model: { string: a100 } }
      capacity: { memory: { value: 40Gi } }
`;

  it('counts a device with binding conditions as unavailable free at 1.35 (gate off), in JSON and tables', () => {
    const file = writeTemp('attachable.yaml', readFileSync(draExample, 'utf8') + attachable);
    const args = ['simulate', '--cluster', file, '--compatibility-version', '1.35'];
    const gpuB = schedlabJson<SimulationDocument>(...args)
      .devices?.find((c) => c.deviceClass === 'gpu.example.com')
      ?.nodes.find((n) => n.node === 'gpu-b');
    expect(gpuB).toEqual({
      node: 'gpu-b',
      total: 3,
      allocated: 1,
      free: 2,
      unavailableFree: 1,
      taintedFree: 0,
    });
    const table = schedlab(...args).stdout.split('\n');
    const at = table.indexOf('Devices by class');
    expect(table[at + 2].split(/\s+/)).toEqual(['gpu.example.com', '3', '7', '5', '2', '1', '0']);
    const wide = schedlab(...args, '-o', 'wide').stdout.split('\n');
    const byNode = wide.indexOf('Devices by class and node');
    expect(wide[byNode + 1].split(/\s{2,}/)).toEqual([
      'CLASS',
      'NODE',
      'TOTAL',
      'ALLOCATED',
      'FREE',
      'UNAVAILABLE FREE',
      'TAINTED FREE',
    ]);
    expect(wide[byNode + 3].split(/\s+/)).toEqual(['gpu.example.com', 'gpu-b', '3', '1', '2', '1', '0']);
    // From 1.36 the device is allocatable: it is free like any other.
    const later = schedlabJson<SimulationDocument>(
      'simulate',
      '--cluster',
      file,
      '--compatibility-version',
      '1.36',
    );
    expect(later.devices?.flatMap((c) => c.nodes.map((n) => n.unavailableFree))).toEqual([0, 0, 0, 0]);
  });
});
