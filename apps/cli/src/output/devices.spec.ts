import { deviceName, formatClaimDevices } from './devices';

describe('DRA device names in placements and explanations', () => {
  const device = {
    claim: 'ml/a',
    request: 'gpu',
    driver: 'gpu.example.com',
    pool: 'fabric',
    device: 'gpu-3',
  };

  it('a device with binding conditions names what PreBind waited for', () => {
    expect(deviceName({ ...device, bindingConditions: ['attached', 'ready'] })).toBe(
      'gpu.example.com/fabric/gpu-3 (bound once attached, ready)',
    );
    expect(deviceName({ ...device, adminAccess: true })).toBe('gpu.example.com/fabric/gpu-3 (admin access)');
    expect(deviceName(device)).toBe('gpu.example.com/fabric/gpu-3');
  });

  it("explain's device table carries it", () => {
    const lines = formatClaimDevices([
      { ...device, bindingConditions: ['attached'], bindingFailureConditions: ['failed'] },
    ]);
    expect(lines.join('\n')).toContain('gpu.example.com/fabric/gpu-3 (bound once attached)');
  });
});
