/**
 * Behaviours the newer-feature golden families (tools/feature-cases, conformance/v*\/requests,
 * csi-capacity, preemption) revealed, each as upstream has it in 1.34 and 1.37.
 */
import { defaultPod, type KubeObject, type Pod } from '@schedlab/k8s';
import { HostPortInfo } from '../framework/types';
import { simulate } from '../simulation/simulate';

const node = (name: string, cpu = '4', memory = '8Gi', extra: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': 'zone-a', ...extra },
    },
    status: { capacity: { cpu, memory, pods: '110' }, allocatable: { cpu, memory, pods: '110' } },
  }) as KubeObject;

describe('pod-level requests defaulting (SetDefaults_Pod 1.34, PrepareForCreate 1.37)', () => {
  it('takes the containers aggregate for cpu/memory before the pod-level limits', () => {
    const p = defaultPod({
      metadata: { name: 'p' },
      spec: {
        resources: { limits: { cpu: '2900m', memory: '640Mi' } },
        initContainers: [{ name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '50m' } } }],
        containers: [{ name: 'main', resources: { requests: { cpu: '1450m' } } }, { name: 'helper' }],
      },
    } as unknown as Pod);
    // cpu: 1450m + the sidecar's 50m; memory: no container asks, so the pod-level limit
    expect((p.spec as { resources?: unknown }).resources).toEqual({
      limits: { cpu: '2900m', memory: '640Mi' },
      requests: { cpu: '1500m', memory: '640Mi' },
    });
  });

  it('leaves pods without pod-level limits alone', () => {
    const p = defaultPod({
      metadata: { name: 'p' },
      spec: {
        resources: { requests: { memory: '1Gi' } },
        containers: [{ name: 'main', resources: { requests: { cpu: '1' } } }],
      },
    } as unknown as Pod);
    expect((p.spec as { resources?: unknown }).resources).toEqual({ requests: { memory: '1Gi' } });
  });
});

describe('NodeResourcesFit scores the incoming pod by its container spec requests', () => {
  // Upstream builds Fit's scorer without its feature flags: pod-level requests do not count for
  // the incoming pod's score (they do for Filter and for BalancedAllocation).
  it.each(['1.34.4', '1.37.2'])('%s', (version) => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { resources: { requests: { cpu: '3' } }, containers: [{ name: 'main' }, { name: 'helper' }] },
    } as KubeObject;
    const r = simulate([node('n1'), pod], {
      compatibilityVersion: version,
      tieBreak: 'lowest-node-name',
      explain: 'full',
    }).results[0];
    expect(r.node).toBe('n1');
    // cpu 200m of 4 (two containers at the 100m default) → 95; memory 400Mi of 8Gi → 95
    expect(r.pluginScores.NodeResourcesFit).toEqual({ n1: 95 });
  });
});

describe('HostPortInfo is a set, as upstream', () => {
  it('frees a port shared by two pods when either is removed', () => {
    const ports = new HostPortInfo();
    ports.add(undefined, 'TCP', 80);
    ports.add(undefined, 'TCP', 80);
    ports.remove(undefined, 'TCP', 80);
    expect(ports.checkConflict('0.0.0.0', 'TCP', 80)).toBe(false);
  });
});

describe('VolumeBinding scores claims to provision with StorageCapacityScoring (1.37)', () => {
  const items = (): KubeObject[] =>
    [
      node('n1', '4', '8Gi', { 'topology.kubernetes.io/zone': 'zone-a' }),
      node('n2', '4', '8Gi', { 'topology.kubernetes.io/zone': 'zone-b' }),
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'd' },
        spec: { storageCapacity: true },
      },
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'zonal' },
        provisioner: 'd',
        volumeBindingMode: 'WaitForFirstConsumer',
      },
      ...['zone-a', 'zone-b'].map((z, i) => ({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIStorageCapacity',
        metadata: { name: `c${i}`, namespace: 'kube-system' },
        storageClassName: 'zonal',
        nodeTopology: { matchLabels: { 'topology.kubernetes.io/zone': z } },
        capacity: i === 0 ? '10Gi' : '100Gi',
      })),
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data', namespace: 'default' },
        spec: {
          storageClassName: 'zonal',
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '5Gi' } },
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'default' },
        spec: {
          containers: [{ name: 'main' }],
          volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }],
        },
      },
    ] as KubeObject[];

  it('1.37: requested / capacity of the CSIStorageCapacity through the default shape (0 → 10, 100 → 0)', () => {
    const r = simulate(items(), {
      compatibilityVersion: '1.37.2',
      tieBreak: 'lowest-node-name',
      explain: 'full',
    }).results[0];
    // n1: 5 of 10 Gi → utilization 50 → 50; n2: 5 of 100 Gi → 5 → 95
    expect(r.pluginScores.VolumeBinding).toEqual({ n1: 50, n2: 95 });
  });

  it('1.34: no capacity scoring', () => {
    const r = simulate(items(), {
      compatibilityVersion: '1.34.4',
      tieBreak: 'lowest-node-name',
      explain: 'full',
    }).results[0];
    expect(r.pluginScores.VolumeBinding).toBeUndefined();
  });
});
