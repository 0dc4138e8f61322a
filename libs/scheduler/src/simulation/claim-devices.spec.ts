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

  it('binding conditions and failure conditions follow the device as lists', () => {
    expect(
      claimDevicesOf({
        'ml/b': [
          'gpu gpu.example.com/fabric/gpu-3 bindingConditions=attached,ready bindingFailureConditions=failed',
          'nic net.example.com/rack/eth-1 admin bindingConditions=linked',
        ],
      }),
    ).toEqual([
      {
        claim: 'ml/b',
        request: 'gpu',
        driver: 'gpu.example.com',
        pool: 'fabric',
        device: 'gpu-3',
        bindingConditions: ['attached', 'ready'],
        bindingFailureConditions: ['failed'],
      },
      {
        claim: 'ml/b',
        request: 'nic',
        driver: 'net.example.com',
        pool: 'rack',
        device: 'eth-1',
        adminAccess: true,
        bindingConditions: ['linked'],
      },
    ]);
  });
});
