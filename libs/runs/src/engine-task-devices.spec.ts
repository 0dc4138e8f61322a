import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseKubernetesObjects } from '@schedlab/k8s';
import { DRA_GPUS_DEVICES, DRA_GPUS_POD_DEVICES } from '@schedlab/testing';
import { executeEngineJob } from './engine-task';

/** A simulate run keeps the device summary in its stored summary and each pod's devices in its explanation. */
describe('engine task: DRA devices of examples/dra-gpus.yaml', () => {
  const file = 'dra-gpus.yaml';
  const items = parseKubernetesObjects(readFileSync(join(__dirname, '../../../examples', file), 'utf8'), {
    source: file,
  }).objects;
  const out = executeEngineJob(
    {
      runId: 'run-devices',
      type: 'simulate',
      content: gzipSync(JSON.stringify({ items })),
      seed: 0,
      options: {},
    },
    () => undefined,
  );

  it('stores the devices per class and node after the run in the summary', () => {
    expect(out.summary.devices).toEqual(DRA_GPUS_DEVICES);
  });

  it("keeps each placed pod's claims with their devices in its stored explanation", () => {
    const claims = Object.fromEntries(
      out.explanations.map((e) => [`${e.namespace}/${e.name}`, e.explanation.claims ?? null]),
    );
    expect(claims).toEqual(
      Object.fromEntries(
        Object.entries(DRA_GPUS_POD_DEVICES).map(([pod, d]) => [
          pod,
          d && { [d.claim]: [`gpu gpu.example.com/${d.pool}/${d.device}`] },
        ]),
      ),
    );
  });
});

/** A scenario run stores the devices of the cluster after its last step. */
describe('engine task: DRA devices of a scenario run on examples/dra-gpus.yaml', () => {
  const file = 'dra-gpus.yaml';
  const items = parseKubernetesObjects(readFileSync(join(__dirname, '../../../examples', file), 'utf8'), {
    source: file,
  }).objects;

  it('counts train-2’s device free after the step that deletes it', () => {
    const out = executeEngineJob(
      {
        runId: 'run-scenario-devices',
        type: 'simulate',
        content: gzipSync(JSON.stringify({ items })),
        seed: 0,
        options: {},
        scenario: { steps: [{ deletePod: { namespace: 'ml', name: 'train-2' } }] },
      },
      () => undefined,
    );
    const freed = DRA_GPUS_POD_DEVICES['ml/train-2'];
    const expected = DRA_GPUS_DEVICES.map((c) => ({
      ...c,
      nodes: c.nodes.map((n) =>
        c.deviceClass === 'gpu.example.com' && n.node === freed?.pool
          ? { ...n, allocated: n.allocated - 1, free: n.free + 1 }
          : n,
      ),
    }));
    expect(out.summary.devices).toEqual(expected);
  });
});
