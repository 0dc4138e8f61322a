/**
 * The behaviour switches of 1.27–1.37 (docs/compatibility.md), each checked on both sides of the
 * release that introduced it. Where upstream has a unit-test table for the behaviour (v1.34.4 /
 * v1.37.2 *_test.go), its rows are ported here as data.
 */
import { podRequests, type Pod } from '@schedlab/k8s';
import { FeatureSet, NEWEST_VERSION, releaseAtLeast } from '../features';
import { defaultConfiguration } from '../apis/config';
import { inTreeRegistry } from '../framework/plugins/registry';
import { CycleState } from '../framework/cycle-state';
import { Code } from '../framework/status';
import { fitErrorMessage } from '../framework/fit-error';
import { NodeToStatusMap } from '../framework/node-to-status';
import { TaintToleration } from '../framework/plugins/tainttoleration';
import { NodePorts } from '../framework/plugins/nodeports';
import { DynamicResources } from '../framework/plugins/dynamicresources';
import { ImageLocality } from '../framework/plugins/imagelocality/image-locality';
import { ClusterObjects } from '../backend/cache/cluster-objects';
import { FakeHandle } from '../testing/fake-handle';
import { makeNode, makePod } from '../testing/builders';
import { simulate } from '../simulation/simulate';
import { Status } from '../framework/status';

describe('compatibility versions', () => {
  it('defaults to 1.37 and accepts patch pins', () => {
    expect(NEWEST_VERSION).toBe('1.37');
    expect(new FeatureSet().release).toBe('1.37');
    expect(FeatureSet.parseVersion('v1.34.4')).toBe('1.34.4');
    expect(new FeatureSet('1.34.0').version).toBe('1.34');
    expect(() => FeatureSet.parseVersion('1.38')).toThrow(/unsupported version/);
    expect(() => FeatureSet.parseVersion('1.34.x')).toThrow(/unsupported version/);
  });

  it('reads a minor as its newest patch and a switch without patch as its first', () => {
    expect(releaseAtLeast('1.34', '1.34.2')).toBe(true);
    expect(releaseAtLeast('1.34.1', '1.34.2')).toBe(false);
    expect(releaseAtLeast('1.34.0', '1.34')).toBe(true);
    expect(releaseAtLeast('1.33', '1.34.0')).toBe(false);
  });

  it.each([
    ['1.33', false],
    ['1.34.0', false],
    ['1.34.1', false],
    ['1.34.2', true],
    ['1.34.4', true],
    ['1.34', true],
    ['1.37', true],
  ])('untolerated taint wording at %s: without key/value %s', (v, without) => {
    expect(new FeatureSet(v).behaviour.untoleratedTaintWithoutKeyValue).toBe(without);
  });

  it.each([
    ['1.33.0', false],
    ['1.33.5', false],
    ['1.33.6', true],
    ['1.33', true],
    ['1.34.0', true],
  ])('sidecar host ports at %s: %s', (v, on) => {
    expect(new FeatureSet(v).behaviour.nodePortsCountSidecarPorts).toBe(on);
  });
});

describe('default profile per release', () => {
  const registry = inTreeRegistry();
  const plugins = (v: string) =>
    defaultConfiguration({ registry, features: new FeatureSet(v) }).profiles[0].plugins;
  const names = (list: { name: string }[]) => list.map((p) => p.name);

  it('drops the in-tree volume limits from 1.31', () => {
    expect(names(plugins('1.30').filter)).toContain('EBSLimits');
    expect(names(plugins('1.31').filter)).not.toContain('EBSLimits');
  });

  it('has DynamicResources before DefaultPreemption from 1.34, scoring with weight 2 from 1.35', () => {
    expect(names(plugins('1.33').postFilter)).toEqual(['DefaultPreemption']);
    expect(names(plugins('1.34').postFilter)).toEqual(['DynamicResources', 'DefaultPreemption']);
    expect(names(plugins('1.34').preEnqueue)).toEqual([
      'SchedulingGates',
      'DynamicResources',
      'DefaultPreemption',
    ]);
    expect(names(plugins('1.34').score)).not.toContain('DynamicResources');
    expect(plugins('1.35').score.find((p) => p.name === 'DynamicResources')?.weight).toBe(2);
  });

  it('appends NodeDeclaredFeatures from 1.36 and puts NodeName first from 1.37', () => {
    expect(names(plugins('1.35').filter)).not.toContain('NodeDeclaredFeatures');
    expect(names(plugins('1.36').filter).slice(-2)).toEqual(['DynamicResources', 'NodeDeclaredFeatures']);
    expect(names(plugins('1.36').filter).slice(0, 2)).toEqual(['NodeUnschedulable', 'NodeName']);
    // As v1.37.2 prints it: filter and preFilter both start with NodeName.
    expect(names(plugins('1.37').filter).slice(0, 3)).toEqual([
      'NodeName',
      'NodeUnschedulable',
      'TaintToleration',
    ]);
    expect(names(plugins('1.37').preFilter).slice(0, 4)).toEqual([
      'NodeName',
      'NodeUnschedulable',
      'TaintToleration',
      'NodeAffinity',
    ]);
  });

  it('gives VolumeBinding a PreScore from 1.30', () => {
    expect(names(plugins('1.29').preScore)).not.toContain('VolumeBinding');
    expect(names(plugins('1.30').preScore)).toContain('VolumeBinding');
  });
});

describe('TaintToleration Filter (upstream v1.34.4 TestTaintTolerationFilter rows)', () => {
  const taint = { key: 'dedicated', value: 'user1', effect: 'NoSchedule' as const };
  const rows: { name: string; tolerations: NonNullable<Pod['spec']>['tolerations']; fits: boolean }[] = [
    {
      name: 'a pod having no tolerations cannot be scheduled onto a node with nonempty taints',
      tolerations: [],
      fits: false,
    },
    {
      name: 'a pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule',
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user1', effect: 'NoSchedule' }],
      fits: true,
    },
    {
      name: 'a pod which can not be scheduled on a dedicated node assigned to user2 with effect NoSchedule',
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      fits: false,
    },
    {
      name: 'a pod can be scheduled onto the node, with a toleration uses operator Exists',
      tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
      fits: true,
    },
  ];
  const node = makeNode({ name: 'n', taints: [taint] });
  const handle = new FakeHandle({ nodes: [node] });
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    const pod = makePod({ name: 'p', spec: { containers: [{ name: 'c' }], tolerations: r.tolerations } });
    for (const [version, reason] of [
      ['1.34.1', 'node(s) had untolerated taint {dedicated: user1}'],
      ['1.34.4', 'node(s) had untolerated taint(s)'],
    ]) {
      const s = new TaintToleration(new FeatureSet(version).behaviour.untoleratedTaintWithoutKeyValue).filter(
        new CycleState(),
        pod,
        handle.snap.get('n')!,
      );
      if (r.fits) expect(s).toBeNull();
      else expect([s?.code, s?.reasons]).toEqual([Code.UnschedulableAndUnresolvable, [reason]]);
    }
  });
});

describe('NodePorts with sidecars (upstream v1.34.4 TestNodePorts rows)', () => {
  const tcp8001 = { containerPort: 8001, hostPort: 8001, protocol: 'TCP', hostIP: '0.0.0.0' };
  const existing = makePod({
    name: 'e',
    nodeName: 'm1',
    spec: { containers: [{ name: 'c', ports: [tcp8001] }] },
  });
  const withInit = (restartPolicy?: string): Pod =>
    makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        initContainers: [{ name: 'i', ports: [tcp8001], ...(restartPolicy ? { restartPolicy } : {}) }],
      },
    });
  const run = (pod: Pod, version: string) => {
    const handle = new FakeHandle({
      nodes: [makeNode({ name: 'm1' })],
      pods: [existing],
      features: new FeatureSet(version),
    });
    const plugin = new NodePorts(handle.features.behaviour.nodePortsCountSidecarPorts);
    const state = new CycleState();
    plugin.preFilter(state, pod);
    if (plugin.filterPassesAllNodes(state, pod)) return null;
    return plugin.filter(state, pod, handle.snap.get('m1')!);
  };

  it('non-sidecar initContainer using hostPort: nothing to check', () => {
    expect(run(withInit(), '1.34')).toBeNull();
  });
  it('TCP hostPort conflict from sidecar initContainer (1.34; not before 1.33.6)', () => {
    expect(run(withInit('Always'), '1.34')?.reasons).toEqual([
      "node(s) didn't have free ports for the requested pod ports",
    ]);
    expect(run(withInit('Always'), '1.33.5')).toBeNull();
  });
  it("a running pod's sidecar holds its host port on the node", () => {
    const sidecarOwner = makePod({
      name: 'e2',
      nodeName: 'm1',
      spec: {
        containers: [{ name: 'c' }],
        initContainers: [{ name: 'i', ports: [tcp8001], restartPolicy: 'Always' }],
      },
    });
    const handle = new FakeHandle({
      nodes: [makeNode({ name: 'm1' })],
      pods: [sidecarOwner],
      features: new FeatureSet('1.34'),
    });
    expect(handle.snap.get('m1')!.usedPorts.checkConflict('0.0.0.0', 'TCP', 8001)).toBe(true);
    const old = new FakeHandle({
      nodes: [makeNode({ name: 'm1' })],
      pods: [sidecarOwner],
      features: new FeatureSet('1.33.0'),
    });
    expect(old.snap.get('m1')!.usedPorts.checkConflict('0.0.0.0', 'TCP', 8001)).toBe(false);
  });
});

describe('pod requests (component-helpers TestPodResourceRequests rows)', () => {
  const container = (name: string, requests: Record<string, string>, restartPolicy?: string) => ({
    name,
    resources: { requests },
    ...(restartPolicy ? { restartPolicy } : {}),
  });
  const pod = (spec: Pod['spec'], status?: unknown): Pod =>
    ({ metadata: { name: 'p' }, spec, status }) as Pod;

  it('restartable init containers add to the app containers and to later init phases', () => {
    // "restartable init container" rows: sidecar 1 + app 1, init 2 on top of the sidecar = 3.
    const p = pod({
      containers: [container('c', { cpu: '1' })],
      initContainers: [container('s', { cpu: '1' }, 'Always'), container('i', { cpu: '2' })],
    });
    expect(podRequests(p).get('cpu')).toBe(3000);
  });

  it('pod-level requests override the containers unless skipped (PodLevelResources)', () => {
    const p = pod({
      resources: { requests: { cpu: '2', memory: '1Gi' } },
      containers: [container('c', { cpu: '1', memory: '512Mi' })],
    } as unknown as Pod['spec']);
    expect(podRequests(p).get('cpu')).toBe(2000);
    expect(podRequests(p, { skipPodLevelResources: true }).get('cpu')).toBe(1000);
  });

  it('a resized pod counts the larger of spec, actuated and allocated (per container up to 1.36)', () => {
    const p = pod(
      { containers: [container('a', { cpu: '1' }), container('b', { cpu: '1' })] },
      {
        containerStatuses: [
          { name: 'a', allocatedResources: { cpu: '2' }, resources: { requests: { cpu: '1500m' } } },
          { name: 'b', allocatedResources: { cpu: '500m' }, resources: { requests: { cpu: '500m' } } },
        ],
      },
    );
    expect(podRequests(p).get('cpu')).toBe(2000);
    // Per container: a → 2, b → max(1, 0.5, 0.5) = 1.
    expect(podRequests(p, { useStatusResources: true }).get('cpu')).toBe(3000);
    // Totals: spec 2, actuated 2, allocated 2.5.
    expect(podRequests(p, { useStatusResources: true, aggregateStatusResources: true }).get('cpu')).toBe(
      2500,
    );
  });

  it('an infeasible resize counts only what the kubelet runs', () => {
    const p = pod(
      { containers: [container('a', { cpu: '4' })] },
      {
        conditions: [{ type: 'PodResizePending', reason: 'Infeasible' }],
        containerStatuses: [
          { name: 'a', allocatedResources: { cpu: '1' }, resources: { requests: { cpu: '1' } } },
        ],
      },
    );
    expect(podRequests(p, { useStatusResources: true }).get('cpu')).toBe(1000);
    expect(podRequests(p, { useStatusResources: true, aggregateStatusResources: true }).get('cpu')).toBe(
      1000,
    );
  });
});

describe('DynamicResources: claims must exist (upstream v1.34.4 TestPlugin "claim does not exist")', () => {
  const objects = new ClusterObjects();
  objects.resourceClaims.set({ metadata: { name: 'present', namespace: 'default' } });
  const handle = new FakeHandle({
    nodes: [makeNode({ name: 'n' })],
    objects,
    features: new FeatureSet('1.34.4'),
  });
  const withClaim = (claim: Record<string, string>, statuses?: unknown) =>
    makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        resourceClaims: [{ name: 'my-claim', ...claim }],
      } as unknown as Pod['spec'],
      ...(statuses ? {} : {}),
    });

  it('holds a pod whose claim is missing at PreEnqueue, UnschedulableAndUnresolvable', () => {
    const s = new DynamicResources(handle).preEnqueue(withClaim({ resourceClaimName: 'gone' }));
    expect([s?.code, s?.message()]).toEqual([
      Code.UnschedulableAndUnresolvable,
      'could not find ResourceClaim "default/gone"',
    ]);
  });
  it('lets a pod whose claim exists through', () => {
    expect(new DynamicResources(handle).preEnqueue(withClaim({ resourceClaimName: 'present' }))).toBeNull();
  });
  it('waits for a template claim the controller has not created', () => {
    const s = new DynamicResources(handle).preEnqueue(withClaim({ resourceClaimTemplateName: 'tmpl' }));
    expect(s?.message()).toBe('pod "default/p": ResourceClaim not created yet');
  });
  it('skips PreFilter without claims; PostFilter says why it cannot help', () => {
    const plugin = new DynamicResources(handle);
    const state = new CycleState();
    expect(plugin.preFilter(state, makePod({ name: 'q' })).status?.code).toBe(Code.Skip);
    expect(plugin.postFilter(state, makePod({ name: 'q' }), new NodeToStatusMap()).status?.message()).toBe(
      'no new claims to deallocate',
    );
    // PreFilter never ran (an earlier plugin rejected the pod): reading the state fails.
    expect(
      plugin.postFilter(new CycleState(), makePod({ name: 'q' }), new NodeToStatusMap()).status?.code,
    ).toBe(Code.Error);
  });
  it('is part of the default profile from 1.34: a pod with a missing claim is not scheduled', () => {
    const items = [
      makeNode({ name: 'n' }),
      makePod({
        name: 'p',
        spec: {
          containers: [{ name: 'c' }],
          resourceClaims: [{ name: 'x', resourceClaimName: 'gone' }],
        } as unknown as Pod['spec'],
      }),
    ];
    const r = simulate(items as never, { compatibilityVersion: '1.34' }).results[0];
    expect(r.node).toBeNull();
    expect(r.message).toBe('could not find ResourceClaim "default/gone"');
    // 1.33 has no DynamicResources by default: the claim is ignored.
    expect(simulate(items as never, { compatibilityVersion: '1.33' }).results[0].node).toBe('n');
  });
});

describe('FitError', () => {
  it('counts nodes without a status under the absent-node status (1.32+)', () => {
    const statuses = Object.assign(new NodeToStatusMap([['a', Status.unschedulable('Insufficient cpu')]]), {
      absentNodesStatus: Status.unresolvable("node(s) didn't satisfy plugin(s) [NodeAffinity]"),
    });
    expect(fitErrorMessage(3, { nodeToStatusMap: statuses })).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].",
    );
  });
  it('appends PostFilter messages with (up to 1.28) or without (1.29+) a period', () => {
    const d = {
      nodeToStatusMap: new NodeToStatusMap([['a', Status.unschedulable('Insufficient cpu')]]),
      postFilterMsg: 'preemption: x.',
    };
    expect(fitErrorMessage(1, d)).toBe('0/1 nodes are available: 1 Insufficient cpu. preemption: x..');
    expect(fitErrorMessage(1, { ...d, postFilterMsgWithoutPeriod: true })).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: x.',
    );
  });
});

describe('NodeResourcesFit beyond allocatable (upstream v1.34.4 TestEnoughRequests "Unresolvable" rows)', () => {
  const items = (cpu: string) => [
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
    makeNode({ name: 'n', allocatable: { cpu: '2', memory: '4Gi', pods: '10' } }),
    makePod({ name: 'low', nodeName: 'n', requests: [{ cpu: '1500m' }] }),
    makePod({
      name: 'high',
      requests: [{ cpu }],
      spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }], priorityClassName: 'high' },
    }),
  ];
  it('more than the whole node: unresolvable, preemption is not helpful', () => {
    const r = simulate(items('3') as never, { compatibilityVersion: '1.34.4' }).results[0];
    expect(r.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
    expect(simulate(items('3') as never, { compatibilityVersion: '1.33' }).results[0].message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.',
    );
  });
  it('within the node but taken: preemption still helps', () => {
    const r = simulate(items('1') as never, { compatibilityVersion: '1.34.4', preemption: true }).results[0];
    expect(r.nominatedNode).toBe('n');
  });
});

describe('ReadWriteOncePod claim in use', () => {
  const items = [
    makeNode({ name: 'n1' }),
    makeNode({ name: 'n2' }),
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'rwop',
        namespace: 'default',
        annotations: { 'pv.kubernetes.io/bind-completed': 'yes' },
      },
      spec: {
        accessModes: ['ReadWriteOncePod'],
        resources: { requests: { storage: '1Gi' } },
        storageClassName: '',
        volumeName: 'pv',
      },
      status: { phase: 'Bound' },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv' },
      spec: {
        accessModes: ['ReadWriteOncePod'],
        capacity: { storage: '1Gi' },
        claimRef: { namespace: 'default', name: 'rwop' },
        hostPath: { path: '/x' },
      },
      status: { phase: 'Bound' },
    },
    makePod({
      name: 'user',
      nodeName: 'n1',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'rwop' } }],
      },
    }),
    makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'rwop' } }],
      },
    }),
  ];
  it('1.26 rejects in PreFilter; from 1.27 every node fails Filter', () => {
    const old = simulate(items as never, {
      compatibilityVersion: '1.26',
      featureGates: { ReadWriteOncePod: true },
    }).results[0];
    expect(old.message).toMatch(
      /^0\/2 nodes are available: node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\./,
    );
    const r = simulate(items as never, { compatibilityVersion: '1.37' }).results[0];
    expect(r.message).toMatch(
      /^0\/2 nodes are available: 2 node\(s\) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod\./,
    );
    // 1.27–1.33 fail Filter too, with the PreFilter-era words.
    expect(simulate(items as never, { compatibilityVersion: '1.33' }).results[0].message).toMatch(
      /^0\/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\./,
    );
  });
});

describe('ImageLocality image volumes (upstream v1.37.2 TestImageLocalityPriority "image volume" rows)', () => {
  const mb = 1024 * 1024;
  const nodes = [
    makeNode({ name: 'n1', images: [{ names: ['gcr.io/300:latest'], sizeBytes: 300 * mb }] }),
    makeNode({ name: 'n2', images: [] }),
  ];
  const pod = makePod({
    name: 'p',
    spec: {
      containers: [{ name: 'c', image: 'gcr.io/none' }],
      volumes: [{ name: 'v', image: { reference: 'gcr.io/300' } }],
    } as unknown as Pod['spec'],
  });
  it('counts the volume image from 1.36', () => {
    const at = (v: string) => {
      const handle = new FakeHandle({ nodes, features: new FeatureSet(v) });
      return new ImageLocality(handle).score(new CycleState(), pod, handle.snap.get('n1')!)[0];
    };
    // 300 MiB × 1/2 nodes over two images: (150 − 23) × 100 / (2000 − 23) = 6.
    expect(at('1.36')).toBe(6);
    expect(at('1.35')).toBe(0);
  });
});

describe('VolumeBinding storage capacity scoring (upstream v1.37.2 TestVolumeBinding "local volumes with close capacity are preferred")', () => {
  const pv = (name: string, capacity: string, node: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: capacity },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'wait-sc',
      local: { path: `/mnt/${name}` },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] },
          ],
        },
      },
    },
    status: { phase: 'Available' },
  });
  const items = [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'wait-sc' },
      provisioner: 'kubernetes.io/no-provisioner',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
    makeNode({ name: 'node-a' }),
    makeNode({ name: 'node-b' }),
    makeNode({ name: 'node-c' }),
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'pvc-a', namespace: 'default' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'wait-sc',
        resources: { requests: { storage: '50Gi' } },
      },
    },
    pv('pv-a-0', '200Gi', 'node-a'),
    pv('pv-a-1', '200Gi', 'node-a'),
    pv('pv-b-0', '100Gi', 'node-b'),
    pv('pv-b-1', '100Gi', 'node-b'),
    makePod({
      name: 'pod-a',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'pvc-a' } }],
      },
    }),
  ];
  it('scores the emptier volume higher from 1.37 (StorageCapacityScoring on)', () => {
    const r = simulate(items as never, { compatibilityVersion: '1.37', explain: 'full' }).results[0];
    expect(r.pluginScores.VolumeBinding).toEqual({ 'node-a': 75, 'node-b': 50 });
    expect(r.filterReasons['node-c']).toEqual(["node(s) didn't find available persistent volumes to bind"]);
  });
  it('leaves the scores before 1.37 (PreScore skips without a scorer)', () => {
    const r = simulate(items as never, { compatibilityVersion: '1.36', explain: 'full' }).results[0];
    expect(r.pluginScores.VolumeBinding).toBeUndefined();
  });
});

describe('PreFilter phase', () => {
  it('nodes a PreFilterResult leaves out count in the FitError from 1.32', () => {
    const items = [
      makeNode({ name: 'n1' }),
      makePod({
        name: 'p',
        spec: {
          containers: [{ name: 'c' }],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['missing'] }] },
                ],
              },
            },
          },
        },
      }),
    ];
    const r = simulate(items as never, { compatibilityVersion: '1.37' }).results[0];
    expect(r.node).toBeNull();
    // From 1.32 the node left out counts in the FitError and preemption skips it.
    expect(r.message).toBe(
      "0/1 nodes are available: 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    );
    // Before, it had no status: no histogram entry, and preemption tried it.
    expect(simulate(items as never, { compatibilityVersion: '1.31' }).results[0].message).toBe(
      '0/1 nodes are available: preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });
});

describe('sidecars without the SidecarContainers gate', () => {
  const items = [
    makeNode({ name: 'n1' }),
    makePod({
      name: 'p',
      spec: { containers: [{ name: 'c' }], initContainers: [{ name: 's', restartPolicy: 'Always' }] },
    }),
  ];
  it('1.28 (gate off by default) refuses the pod in PreFilter; 1.29 schedules it', () => {
    expect(simulate(items as never, { compatibilityVersion: '1.28' }).results[0].message).toBe(
      '0/1 nodes are available: Pod has a restartable init container and the SidecarContainers feature is disabled. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..',
    );
    expect(simulate(items as never, { compatibilityVersion: '1.29' }).results[0].node).toBe('n1');
  });
});

describe('what running pods take, per release', () => {
  const node = makeNode({ name: 'n1', allocatable: { cpu: '2', memory: '4Gi', pods: '10' } });
  const pending = makePod({ name: 'p', requests: [{ cpu: '1500m' }] });
  const fitsBeside = (running: Pod, version: string) =>
    simulate([node, running, pending] as never, { compatibilityVersion: version, preemption: false })
      .results[0].node;

  it('pod-level requests count from 1.34 (PodLevelResources)', () => {
    const podLevel = makePod({
      name: 'r',
      nodeName: 'n1',
      requests: [{ cpu: '100m' }],
      spec: {
        containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }],
        resources: { requests: { cpu: '1' } },
      } as unknown as Pod['spec'],
    });
    expect(fitsBeside(podLevel, '1.33')).toBe('n1');
    expect(fitsBeside(podLevel, '1.34')).toBeNull();
  });

  it("a resized pod's allocated resources count from 1.33 (InPlacePodVerticalScaling)", () => {
    const resized = {
      ...makePod({ name: 'r', nodeName: 'n1', requests: [{ cpu: '100m' }] }),
      status: {
        containerStatuses: [
          { name: 'c0', allocatedResources: { cpu: '1' }, resources: { requests: { cpu: '1' } } },
        ],
      },
    } as unknown as Pod;
    expect(fitsBeside(resized, '1.32')).toBe('n1');
    expect(fitsBeside(resized, '1.33')).toBeNull();
  });
});

describe('VolumeZone reads a PV’s beta zone label against GA-labelled nodes (1.29+, kubernetes#118923)', () => {
  // An old in-tree volume labelled with the beta key, on a cluster whose nodes carry only GA labels.
  const items = [
    makeNode({ name: 'a', labels: { 'topology.kubernetes.io/zone': 'z1' } }),
    makeNode({ name: 'b', labels: { 'topology.kubernetes.io/zone': 'z2' } }),
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'old-disk', labels: { 'failure-domain.beta.kubernetes.io/zone': 'z2' } },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        claimRef: { namespace: 'default', name: 'data' },
      },
      status: { phase: 'Bound' },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'data',
        namespace: 'default',
        annotations: { 'pv.kubernetes.io/bind-completed': 'yes' },
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        volumeName: 'old-disk',
        resources: { requests: { storage: '1Gi' } },
      },
      status: { phase: 'Bound' },
    },
    makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }],
      },
    }),
  ];
  const run = (release: string) => simulate(items as never, { compatibilityVersion: release }).results[0];

  it('1.28: no node has the beta key, so every zoned node conflicts', () => {
    const r = run('1.28');
    expect(r.node).toBeNull();
    expect(r.message).toMatch(/^0\/2 nodes are available: 2 node\(s\) had no available volume zone\./);
  });

  it.each(['1.29', '1.34', '1.37'])(
    '%s: the volume’s zone is read as the GA label, so it lands in z2',
    (release) => {
      expect(run(release).node).toBe('b');
    },
  );
});

describe('VolumeZone resolves the pod’s claims in PreFilter from 1.27 (kubernetes#114149, #114896)', () => {
  // A claim still bound to a PersistentVolume that was deleted (the claim would show Lost). In the
  // default profile VolumeBinding's PreFilter rejects it first; without VolumeBinding, VolumeZone
  // decides: from 1.27 its PreFilter rejects the pod, in 1.26 its Filter let a node without zone
  // labels through before looking at the claims.
  const items = [
    makeNode({ name: 'a', labels: { 'topology.kubernetes.io/zone': 'z1' } }),
    makeNode({ name: 'b' }),
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'data',
        namespace: 'default',
        annotations: { 'pv.kubernetes.io/bind-completed': 'yes' },
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        volumeName: 'gone',
        resources: { requests: { storage: '1Gi' } },
      },
      status: { phase: 'Lost' },
    },
    makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }],
      },
    }),
  ];
  const withoutVolumeBinding = {
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    profiles: [
      {
        schedulerName: 'default-scheduler',
        plugins: { multiPoint: { disabled: [{ name: 'VolumeBinding' }] } },
      },
    ],
  };
  const run = (release: string, schedulerConfiguration?: unknown) =>
    simulate(items as never, { compatibilityVersion: release, schedulerConfiguration }).results[0];

  it('1.26: the node without zone labels takes the pod; the zoned one reports the missing volume', () => {
    const r = run('1.26', withoutVolumeBinding);
    expect(r.node).toBe('b');
  });

  it.each(['1.27', '1.34', '1.37'])(
    '%s: PreFilter rejects the pod with the lister’s not-found error',
    (release) => {
      const r = run(release, withoutVolumeBinding);
      expect(r.node).toBeNull();
      expect(r.message).toMatch(/^0\/2 nodes are available: persistentvolume "gone" not found\./);
    },
  );

  it.each(['1.26', '1.37'])('%s default profile: VolumeBinding’s PreFilter speaks first', (release) => {
    expect(run(release).message).toMatch(
      /^0\/2 nodes are available: persistentvolumeclaim "data" bound to non-existent persistentvolume "gone"\./,
    );
  });
});
