/**
 * The simulation result's device summary: per class and node, devices reachable, held by
 * allocated claims (those allocated while scheduling included) and free; taints counted apart.
 */
import type { KubeObject } from '@schedlab/k8s';
import { simulate } from '../../../../simulation/simulate';

const node = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } },
});
const slice = (name: string, where: Record<string, unknown>, devices: unknown[]): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name },
  spec: {
    driver: 'gpu.example.com',
    pool: { name, generation: 1, resourceSliceCount: 1 },
    ...where,
    devices,
  },
});
const deviceClass = (name: string, expression: string): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name },
  spec: { selectors: [{ cel: { expression } }] },
});
const items: KubeObject[] = [
  node('gpu-1'),
  node('gpu-2'),
  deviceClass('gpu', 'device.driver == "gpu.example.com"'),
  deviceClass(
    'big',
    'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].big == true',
  ),
  slice('gpu-1', { nodeName: 'gpu-1' }, [
    { name: 'gpu-0', attributes: { big: { bool: true } } },
    { name: 'gpu-1', attributes: { big: { bool: false } } },
  ]),
  slice('gpu-2', { nodeName: 'gpu-2' }, [
    {
      name: 'gpu-0',
      attributes: { big: { bool: false } },
      taints: [{ key: 'broken', effect: 'NoSchedule' }],
    },
  ]),
  slice('shared', { allNodes: true }, [{ name: 'fabric-0', attributes: { big: { bool: false } } }]),
  {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'big-one', namespace: 'default' },
    spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'big' } }] } },
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'trainer', namespace: 'default' },
    spec: {
      resourceClaims: [{ name: 'r', resourceClaimName: 'big-one' }],
      containers: [{ name: 'c', image: 'x', resources: { claims: [{ name: 'r' }] } }],
    },
  },
];

describe('device summary', () => {
  it('counts per class and node after scheduling, shared pools for every node they reach', () => {
    const result = simulate(items, { compatibilityVersion: '1.37', tieBreak: 'lowest-node-name' });
    expect(result.results[0]).toMatchObject({ outcome: 'scheduled', node: 'gpu-1' });
    expect(result.devices).toEqual([
      {
        deviceClass: 'gpu',
        nodes: [
          { node: 'gpu-1', total: 3, allocated: 1, free: 2, taintedFree: 0 },
          { node: 'gpu-2', total: 2, allocated: 0, free: 2, taintedFree: 1 },
        ],
      },
      { deviceClass: 'big', nodes: [{ node: 'gpu-1', total: 1, allocated: 1, free: 0, taintedFree: 0 }] },
    ]);
  });
  it('a slice with per-device node selection counts each device for the nodes it names (1.36+)', () => {
    const tray = slice('tray', { perDeviceNodeSelection: true }, [
      { name: 'tray-0', nodeName: 'gpu-1', attributes: { big: { bool: false } } },
      { name: 'tray-1', nodeName: 'gpu-2', attributes: { big: { bool: false } } },
      { name: 'tray-2', allNodes: true, attributes: { big: { bool: false } } },
    ]);
    const result = simulate([...items, tray], { compatibilityVersion: '1.37', tieBreak: 'lowest-node-name' });
    expect(result.devices?.[0].nodes.map((n) => [n.node, n.total])).toEqual([
      ['gpu-1', 5],
      ['gpu-2', 4],
    ]);
    // Before DRAPartitionableDevices (1.36) such slices are not read at all.
    const old = simulate([...items, tray], { compatibilityVersion: '1.34', tieBreak: 'lowest-node-name' });
    expect(old.devices?.[0].nodes.map((n) => [n.node, n.total])).toEqual([
      ['gpu-1', 3],
      ['gpu-2', 2],
    ]);
  });
  it('before 1.36 taints do not count (DRADeviceTaints off); no classes, no summary', () => {
    const result = simulate(items, { compatibilityVersion: '1.34', tieBreak: 'lowest-node-name' });
    expect(result.devices?.[0].nodes[1]).toMatchObject({ node: 'gpu-2', taintedFree: 0 });
    expect(simulate([node('n')]).devices).toBeUndefined();
  });
});
