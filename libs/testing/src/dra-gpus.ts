/**
 * What scheduling examples/dra-gpus.yaml must give (default release and seed), asserted by the
 * CLI, worker and API specs alike: one expectation for every layer that shows the devices.
 */

/** The engine's device summary once the run is over: per DeviceClass and node. */
export const DRA_GPUS_DEVICES = [
  {
    deviceClass: 'gpu.example.com',
    nodes: [
      { node: 'gpu-a', total: 2, allocated: 2, free: 0, unavailableFree: 0, taintedFree: 0 },
      { node: 'gpu-b', total: 2, allocated: 1, free: 1, unavailableFree: 0, taintedFree: 0 },
      { node: 'gpu-c', total: 2, allocated: 2, free: 0, unavailableFree: 0, taintedFree: 0 },
    ],
  },
  {
    deviceClass: 'large-gpu.example.com',
    nodes: [{ node: 'gpu-c', total: 2, allocated: 2, free: 0, unavailableFree: 0, taintedFree: 0 }],
  },
];

/**
 * Each pending pod's claim and the device it was allocated ("pool/device" of gpu.example.com,
 * request `gpu`); null for the pod that stays pending. gpu-a's gpu-0 is held by the running pod.
 */
export const DRA_GPUS_POD_DEVICES: Record<string, { claim: string; pool: string; device: string } | null> = {
  'ml/train-1': { claim: 'ml/train-1-gpu-h4tqm', pool: 'gpu-c', device: 'gpu-0' },
  'ml/train-2': { claim: 'ml/train-2-gpu-4g6pz', pool: 'gpu-b', device: 'gpu-0' },
  'ml/train-3': { claim: 'ml/train-3-gpu-jwcvl', pool: 'gpu-a', device: 'gpu-1' },
  'ml/finetune-1': { claim: 'ml/finetune-1-gpu-7ht4z', pool: 'gpu-c', device: 'gpu-1' },
  'ml/sweep-1': null,
};
