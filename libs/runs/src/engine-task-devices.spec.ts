import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseKubernetesObjects } from '@schedlab/k8s';
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
    expect(out.summary.devices).toEqual([
      {
        deviceClass: 'gpu.example.com',
        nodes: [
          { node: 'gpu-a', total: 2, allocated: 2, free: 0, taintedFree: 0 },
          { node: 'gpu-b', total: 2, allocated: 1, free: 1, taintedFree: 0 },
          { node: 'gpu-c', total: 2, allocated: 2, free: 0, taintedFree: 0 },
        ],
      },
      {
        deviceClass: 'large-gpu.example.com',
        nodes: [{ node: 'gpu-c', total: 2, allocated: 2, free: 0, taintedFree: 0 }],
      },
    ]);
  });

  it("keeps each placed pod's claims with their devices in its stored explanation", () => {
    const claims = Object.fromEntries(out.explanations.map((e) => [e.name, e.explanation.claims]));
    expect(claims).toEqual({
      'train-1': { 'ml/train-1-gpu-h4tqm': ['gpu gpu.example.com/gpu-c/gpu-0'] },
      'train-2': { 'ml/train-2-gpu-4g6pz': ['gpu gpu.example.com/gpu-b/gpu-0'] },
      'train-3': { 'ml/train-3-gpu-jwcvl': ['gpu gpu.example.com/gpu-a/gpu-1'] },
      'finetune-1': { 'ml/finetune-1-gpu-7ht4z': ['gpu gpu.example.com/gpu-c/gpu-1'] },
      'sweep-1': undefined,
    });
  });
});
