import type { Pod } from './types';
import { podQosClass } from './qos';

type Resources = { requests?: Record<string, string>; limits?: Record<string, string> };
const pod = (containers: Resources[], init: Resources[] = [], podLevel?: Resources): Pod => ({
  metadata: { name: 'p' },
  spec: {
    containers: containers.map((resources, i) => ({ name: `c${i}`, resources })),
    initContainers: init.map((resources, i) => ({ name: `i${i}`, resources })),
    ...(podLevel ? { resources: podLevel } : {}),
  } as Pod['spec'],
});

describe('podQosClass', () => {
  it.each<[string, Pod, string]>([
    ['nothing set', pod([{}]), 'BestEffort'],
    ['zero requests count as unset', pod([{ requests: { cpu: '0', memory: '0' } }]), 'BestEffort'],
    ['only extended resources', pod([{ requests: { 'nvidia.com/gpu': '1' } }]), 'BestEffort'],
    [
      'equal limits and requests in other units',
      pod([{ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1024Mi' } }]),
      'Guaranteed',
    ],
    ['limits only (requests default to them)', pod([{ limits: { cpu: '1', memory: '1Gi' } }]), 'Guaranteed'],
    [
      'one container without a memory limit',
      pod([{ limits: { cpu: '1', memory: '1Gi' } }, { limits: { cpu: '1' } }]),
      'Burstable',
    ],
    [
      'request below limit',
      pod([{ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }]),
      'Burstable',
    ],
    [
      'an init container counts',
      pod([{ limits: { cpu: '1', memory: '1Gi' } }], [{ requests: { cpu: '100m' } }]),
      'Burstable',
    ],
    [
      'pod-level resources decide alone',
      pod([{ requests: { cpu: '100m' } }], [], { limits: { cpu: '2', memory: '2Gi' } }),
      'Guaranteed',
    ],
    ['pod-level requests only', pod([{}], [], { requests: { cpu: '2' } }), 'Burstable'],
  ])('%s', (_name, p, expected) => {
    expect(podQosClass(p)).toBe(expected);
  });
});
