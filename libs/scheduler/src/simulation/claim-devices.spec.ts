import { claimDevicesOf } from './claim-devices';

describe('claimDevicesOf', () => {
  it('splits each "request driver/pool/device" line; a pool keeps its slashes; admin access flagged', () => {
    expect(
      claimDevicesOf({
        'ml/a': ['gpu gpu.example.com/gpu-a/gpu-1', 'nic/fast net.example.com/rack/1/eth-0'],
        'ops/monitor': ['all gpu.example.com/gpu-a/gpu-0 admin'],
      }),
    ).toEqual([
      { claim: 'ml/a', request: 'gpu', driver: 'gpu.example.com', pool: 'gpu-a', device: 'gpu-1' },
      { claim: 'ml/a', request: 'nic/fast', driver: 'net.example.com', pool: 'rack/1', device: 'eth-0' },
      {
        claim: 'ops/monitor',
        request: 'all',
        driver: 'gpu.example.com',
        pool: 'gpu-a',
        device: 'gpu-0',
        adminAccess: true,
      },
    ]);
    expect(claimDevicesOf(undefined)).toEqual([]);
  });
});
