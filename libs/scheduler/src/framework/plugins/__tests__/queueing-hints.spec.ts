/**
 * The default plugins' QueueingHint functions against their upstream v1.37.2 test tables
 * (nodeaffinity Test_isSchedulableAfterNodeChange, tainttoleration TestIsSchedulableAfterNodeChange,
 * nodeunschedulable TestIsSchedulableAfterNodeChange / TestIsSchedulableAfterPodTolerationChange,
 * nodeports Test_isSchedulableAfterAssignedPodDeleted, noderesources fit's
 * Test_isSchedulableAfterAssignedPodDelete / AssignedPodScaleDown / NodeChange / DeviceClassChange,
 * schedulinggates,
 * podtopologyspread's and interpodaffinity's three tables each, volumebinding's five,
 * volumerestrictions' two, volumezone's three, nodevolumelimits' four and dynamicresources'
 * claim-change table),
 * and their EventsToRegister. Upstream's "wrong object" rows return an error, which the queue
 * takes as Queue; here the hint throws. Rows about pods waiting on a deferred in-place resize are
 * not ported: a pending pod never is one.
 */
import type { Node, Pod, Taint, Toleration } from '@schedlab/k8s';
import { FeatureSet } from '../../../features';
import { FakeHandle } from '../../../testing/fake-handle';
import { makePod } from '../../../testing/builders';
import { ActionType, QueueingHint } from '../../events';
import { NodeAffinity } from '../nodeaffinity/node-affinity';
import { defaultFitArgs } from '../noderesources/args';
import { Fit } from '../noderesources/fit';
import { NodePorts } from '../nodeports/node-ports';
import { NodeUnschedulable } from '../nodeunschedulable/node-unschedulable';
import { SchedulingGates } from '../schedulinggates/scheduling-gates';
import { TaintToleration } from '../tainttoleration/taint-toleration';
import { PodTopologySpread } from '../podtopologyspread/plugin';
import { InterPodAffinity } from '../interpodaffinity/plugin';
import { VolumeBinding } from '../volumebinding/volume-binding';
import { VolumeRestrictions } from '../volumerestrictions/volume-restrictions';
import { VolumeZone } from '../volumezone/volume-zone';
import { CSILimits } from '../nodevolumelimits/csi';
import { NodeDeclaredFeatures } from '../nodedeclaredfeatures/node-declared-features';
import { DynamicResources } from '../dynamicresources/dynamic-resources';
import { ClusterObjects } from '../../../backend/cache/cluster-objects';
import { defaultVolumeBindingArgs } from '../volumebinding/args';
import { defaultArgs as defaultInterPodAffinityArgs } from '../interpodaffinity/args';
import { DefaultPreemption } from '../defaultpreemption/default-preemption';
import { defaultArgs as defaultPreemptionArgs } from '../defaultpreemption/args';

const { Queue, QueueSkip } = QueueingHint;
type Row = { name: string; pod?: Pod; oldObj?: unknown; newObj?: unknown; want: QueueingHint | 'error' };

function check(row: Row, hint: (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint) {
  const pod = row.pod ?? makePod({ name: 'p' });
  if (row.want === 'error') expect(() => hint(pod, row.oldObj, row.newObj)).toThrow();
  else expect(hint(pod, row.oldObj, row.newObj)).toBe(row.want);
}

/** st.MakeNode(): a node with labels and capacity (= allocatable). */
function node(
  o: {
    labels?: Record<string, string>;
    capacity?: Record<string, string>;
    taints?: Taint[];
    unschedulable?: boolean;
  } = {},
): Node {
  return {
    kind: 'Node',
    metadata: { name: 'n', labels: o.labels },
    spec: { taints: o.taints, unschedulable: o.unschedulable },
    status: o.capacity ? { capacity: o.capacity, allocatable: o.capacity } : {},
  } as Node;
}

function podWith(o: {
  name?: string;
  requests?: Record<string, string>;
  podLevel?: Record<string, string>;
  nodeName?: string;
  nominated?: string;
  hostPort?: number;
  tolerations?: Toleration[];
  nodeAffinityIn?: [string, string[]];
}): Pod {
  const p = makePod({
    name: o.name ?? 'pod1',
    requests: o.requests ? [o.requests] : undefined,
    nodeName: o.nodeName,
  });
  if (o.hostPort)
    p.spec!.containers[0].ports = [{ containerPort: o.hostPort, hostPort: o.hostPort, protocol: 'TCP' }];
  if (o.tolerations) p.spec!.tolerations = o.tolerations;
  if (o.podLevel) (p.spec as { resources?: unknown }).resources = { requests: o.podLevel };
  if (o.nodeAffinityIn) {
    const [key, values] = o.nodeAffinityIn;
    p.spec!.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }],
        },
      },
    };
  }
  return o.nominated ? ({ ...p, status: { nominatedNodeName: o.nominated } } as Pod) : p;
}

describe('NodeAffinity isSchedulableAfterNodeChange', () => {
  const pod = podWith({ nodeAffinityIn: ['foo', ['bar']] });
  const enforced = {
    addedAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'In' as const, values: ['bar'] }] }],
      },
    },
  };
  const rows: (Row & { args?: typeof enforced })[] = [
    { name: 'backoff-wrong-new-object', pod, newObj: 'not-a-node', want: 'error' },
    { name: 'backoff-wrong-old-object', pod, oldObj: 'not-a-node', newObj: node(), want: 'error' },
    { name: 'skip-queue-on-add', pod, newObj: node(), want: QueueSkip },
    { name: 'queue-on-add', pod, newObj: node({ labels: { foo: 'bar' } }), want: Queue },
    { name: 'skip-unrelated-changes', pod, oldObj: node(), newObj: node({ capacity: {} }), want: QueueSkip },
    {
      name: 'skip-unrelated-changes-on-labels',
      pod,
      oldObj: node(),
      newObj: node({ labels: { k: 'v' } }),
      want: QueueSkip,
    },
    {
      name: 'skip-labels-changes-on-node-from-suitable-to-unsuitable',
      pod,
      oldObj: node({ labels: { foo: 'bar' } }),
      newObj: node({ labels: { k: 'v' } }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-labels-change-makes-pod-schedulable',
      pod,
      oldObj: node(),
      newObj: node({ labels: { foo: 'bar' } }),
      want: Queue,
    },
    {
      name: 'skip-unrelated-change-that-keeps-pod-schedulable',
      pod,
      oldObj: node({ labels: { foo: 'bar' } }),
      newObj: node({ capacity: {}, labels: { foo: 'bar' } }),
      want: QueueSkip,
    },
    {
      name: 'skip-queue-on-add-scheduler-enforced-node-affinity',
      args: enforced,
      pod,
      newObj: node(),
      want: QueueSkip,
    },
    {
      name: 'queue-on-add-scheduler-enforced-node-affinity',
      args: enforced,
      pod,
      newObj: node({ labels: { foo: 'bar' } }),
      want: Queue,
    },
  ];
  it.each(rows)('$name', (row) => {
    const pl = new NodeAffinity(row.args ?? {}, new FakeHandle());
    check(row, (p, o, n) => pl.isSchedulableAfterNodeChange(p, o, n));
  });

  it('registers Node Add and UpdateNodeLabel', () => {
    const events = new NodeAffinity({}, new FakeHandle()).eventsToRegister().map((e) => e.event);
    expect(events).toEqual([{ resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel }]);
  });
});

describe('TaintToleration', () => {
  const taint = (value: string): Taint => ({ key: 'dedicated', value, effect: 'NoSchedule' });
  const pod1 = podWith({
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
  });
  const rows: Row[] = [
    { name: 'backoff-wrong-new-object', newObj: 'not-a-node', want: 'error' },
    {
      name: 'backoff-wrong-old-object',
      newObj: node({ taints: [taint('user1')] }),
      oldObj: 'not-a-node',
      want: 'error',
    },
    {
      name: 'skip-queue-on-untoleratedtaint-node-added',
      pod: pod1,
      newObj: node({ taints: [taint('user1')] }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-toleratedtaint-node-added',
      pod: pod1,
      newObj: node({ taints: [taint('user2')] }),
      want: Queue,
    },
    {
      name: 'skip-unrelated-change',
      pod: pod1,
      newObj: node({ taints: [taint('user1'), taint('user3')] }),
      oldObj: node({ taints: [taint('user1')] }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-taint-change',
      pod: pod1,
      newObj: node({ taints: [taint('user2')] }),
      oldObj: node({ taints: [taint('user1')] }),
      want: Queue,
    },
  ];
  it.each(rows)('isSchedulableAfterNodeChange: $name', (row) => {
    const pl = new TaintToleration();
    check(row, (p, o, n) => pl.isSchedulableAfterNodeChange(p, o, n));
  });

  it('queue-on-toleration-added (Test_isSchedulableAfterTargetPodTolerationChange)', () => {
    const reg = new TaintToleration().eventsToRegister();
    const toleration = reg.find((r) => r.event.resource === 'TargetPod')!;
    expect(toleration.event.actionType).toBe(ActionType.UpdatePodToleration);
    const oldPod = podWith({});
    const newPod = podWith({ tolerations: [{ key: 'foo', effect: 'NoSchedule' }] });
    expect(toleration.queueingHintFn!(oldPod, oldPod, newPod)).toBe(Queue);
  });
});

describe('NodeUnschedulable', () => {
  const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
  const nodeRows: Row[] = [
    { name: 'error-wrong-new-object', newObj: 'not-a-node', want: 'error' },
    {
      name: 'error-wrong-old-object',
      newObj: node({ unschedulable: true }),
      oldObj: 'not-a-node',
      want: 'error',
    },
    {
      name: 'skip-queue-on-unschedulable-node-added',
      newObj: node({ unschedulable: true }),
      want: QueueSkip,
    },
    { name: 'queue-on-schedulable-node-added', newObj: node({ unschedulable: false }), want: Queue },
    {
      name: 'skip-unrelated-change-unschedulable-true',
      newObj: node({ unschedulable: true, taints: [notReady] }),
      oldObj: node({ unschedulable: true }),
      want: QueueSkip,
    },
    {
      name: 'skip-unrelated-change-unschedulable-false',
      newObj: node({ unschedulable: false, taints: [notReady] }),
      oldObj: node({ unschedulable: false }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-unschedulable-field-change',
      newObj: node({ unschedulable: false }),
      oldObj: node({ unschedulable: true }),
      want: Queue,
    },
  ];
  it.each(nodeRows)('TestIsSchedulableAfterNodeChange: $name', (row) => {
    const pl = new NodeUnschedulable();
    check(row, (p, o, n) => pl.isSchedulableAfterNodeChange(p, o, n));
  });

  const tolerationRows: Row[] = [
    { name: 'error-wrong-new-object', newObj: 'not-a-pod', want: 'error' },
    { name: 'error-wrong-old-object', newObj: podWith({}), oldObj: 'not-a-pod', want: 'error' },
    {
      name: 'queue-when-the-unsched-pod-gets-toleration',
      newObj: podWith({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }] }),
      oldObj: podWith({}),
      want: Queue,
    },
    {
      name: 'skip-when-the-unsched-pod-gets-unrelated-toleration',
      newObj: podWith({ tolerations: [{ key: 'unrelated-key', operator: 'Exists' }] }),
      oldObj: podWith({}),
      want: QueueSkip,
    },
  ];
  it.each(tolerationRows)('TestIsSchedulableAfterPodTolerationChange: $name', (row) => {
    const pl = new NodeUnschedulable();
    check(row, (p, o, n) => pl.isSchedulableAfterTargetPodTolerationChange(p, o, n));
  });
});

describe('NodePorts Test_isSchedulableAfterAssignedPodDeleted', () => {
  const pod = podWith({ hostPort: 8080 });
  const rows: Row[] = [
    { name: 'backoff-wrong-old-object', pod, oldObj: 'not-a-pod', want: 'error' },
    { name: 'skip-queue-on-unscheduled', pod, oldObj: podWith({ name: 'x' }), want: QueueSkip },
    {
      name: 'skip-queue-on-non-hostport',
      pod,
      oldObj: podWith({ name: 'x', nodeName: 'fake-node' }),
      want: QueueSkip,
    },
    {
      name: 'skip-queue-on-unrelated-hostport',
      pod,
      oldObj: podWith({ name: 'x', nodeName: 'fake-node', hostPort: 8081 }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-released-hostport',
      pod,
      oldObj: podWith({ name: 'x', nodeName: 'fake-node', hostPort: 8080 }),
      want: Queue,
    },
  ];
  it.each(rows)('$name', (row) => {
    const pl = new NodePorts();
    check(row, (p, o) => pl.isSchedulableAfterAssignedPodDeleted(p, o));
  });
});

describe('NodeResourcesFit', () => {
  const newFit = (features = new FeatureSet()) =>
    new Fit(defaultFitArgs(undefined), new FakeHandle({ features }));
  const extA = 'example.com/aaa';
  const extB = 'example.com/bbb';

  const deleteRows: Row[] = [
    { name: 'backoff-wrong-old-object', oldObj: 'not-a-pod', want: 'error' },
    {
      name: 'queue-on-other-pod-deleted',
      pod: podWith({ requests: { cpu: '1' } }),
      oldObj: podWith({ name: 'pod2', requests: { cpu: '1' }, nodeName: 'fake' }),
      want: Queue,
    },
    { name: 'skip-queue-on-unscheduled-pod-deleted', oldObj: { spec: {} }, want: QueueSkip },
    {
      name: 'queue-on-nominated-pod-deleted',
      pod: podWith({ requests: { cpu: '1' } }),
      oldObj: podWith({ name: 'pod2', requests: { cpu: '2' }, nominated: 'fake' }),
      want: Queue,
    },
  ];
  it.each(deleteRows)('Test_isSchedulableAfterAssignedPodDelete: $name', (row) => {
    const pl = newFit();
    check(row, (p, o) => pl.isSchedulableAfterAssignedPodDelete(p, o));
  });

  const scaleDownRows: Row[] = [
    { name: 'backoff-wrong-old-object', oldObj: 'not-a-pod', newObj: podWith({}), want: 'error' },
    { name: 'backoff-wrong-new-object', oldObj: podWith({}), newObj: 'not-a-pod', want: 'error' },
    {
      name: 'skip-queue-on-other-unscheduled-pod',
      pod: podWith({ requests: { cpu: '1' } }),
      oldObj: podWith({ name: 'pod2', requests: { cpu: '2' } }),
      newObj: podWith({ name: 'pod2', requests: { cpu: '1' } }),
      want: QueueSkip,
    },
    {
      name: 'skip-queue-on-other-pod-unrelated-resource-scaled-down',
      pod: podWith({ requests: { cpu: '1' } }),
      oldObj: podWith({ name: 'pod2', requests: { memory: '2' }, nodeName: 'fake' }),
      newObj: podWith({ name: 'pod2', requests: { memory: '1' }, nodeName: 'fake' }),
      want: QueueSkip,
    },
    {
      name: 'skip-queue-on-other-pod-unrelated-pod-level-resource-scaled-down',
      pod: podWith({ podLevel: { cpu: '1' } }),
      oldObj: podWith({ name: 'pod2', podLevel: { memory: '2' }, nodeName: 'fake' }),
      newObj: podWith({ name: 'pod2', podLevel: { memory: '1' }, nodeName: 'fake' }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-other-pod-some-resource-scale-down',
      pod: podWith({ requests: { cpu: '1' } }),
      oldObj: podWith({ name: 'pod2', requests: { cpu: '2' }, nodeName: 'fake' }),
      newObj: podWith({ name: 'pod2', requests: { cpu: '1' }, nodeName: 'fake' }),
      want: Queue,
    },
    {
      name: 'queue-on-other-pod-some-pod-level-resource-scale-down',
      pod: podWith({ podLevel: { cpu: '1' } }),
      oldObj: podWith({ name: 'pod2', podLevel: { cpu: '2' }, nodeName: 'fake' }),
      newObj: podWith({ name: 'pod2', podLevel: { cpu: '1' }, nodeName: 'fake' }),
      want: Queue,
    },
  ];
  it.each(scaleDownRows)('Test_isSchedulableAfterAssignedPodScaleDown: $name', (row) => {
    const pl = newFit();
    check(row, (p, o, n) => pl.isSchedulableAfterAssignedPodScaleDown(p, o, n));
  });

  const nodeRows: Row[] = [
    { name: 'backoff-wrong-new-object', newObj: 'not-a-node', want: 'error' },
    { name: 'backoff-wrong-old-object', oldObj: 'not-a-node', newObj: node(), want: 'error' },
    {
      name: 'skip-queue-on-node-add-without-sufficient-resources',
      pod: podWith({ requests: { memory: '2' } }),
      newObj: node({ capacity: { memory: '1' } }),
      want: QueueSkip,
    },
    {
      name: 'skip-queue-on-node-add-without-required-resource-type',
      pod: podWith({ requests: { [extA]: '1' } }),
      newObj: node({ capacity: { [extB]: '1' } }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-node-add-with-sufficient-resources',
      pod: podWith({ requests: { memory: '2', [extA]: '1' } }),
      newObj: node({ capacity: { memory: '4', [extA]: '2' } }),
      want: Queue,
    },
    {
      name: 'skip-queue-on-node-unrelated-changes',
      pod: podWith({ requests: { memory: '2', [extA]: '1' } }),
      oldObj: node({ capacity: { memory: '2', [extA]: '2' } }),
      newObj: node({ capacity: { memory: '2', [extA]: '1', [extB]: '2' } }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-pod-requested-resources-increase',
      pod: podWith({ requests: { memory: '2', [extA]: '1' } }),
      oldObj: node({ capacity: { memory: '2', [extA]: '1' } }),
      newObj: node({ capacity: { memory: '2', [extA]: '2' } }),
      want: Queue,
    },
    {
      name: 'skip-queue-on-node-changes-from-suitable-to-unsuitable',
      pod: podWith({ requests: { memory: '2', [extA]: '1' } }),
      oldObj: node({ capacity: { memory: '4', [extA]: '2' } }),
      newObj: node({ capacity: { memory: '1', [extA]: '2' } }),
      want: QueueSkip,
    },
    {
      name: 'queue-on-node-changes-from-unsuitable-to-suitable',
      pod: podWith({ requests: { memory: '2', [extA]: '1' } }),
      oldObj: node({ capacity: { memory: '1', [extA]: '2' } }),
      newObj: node({ capacity: { memory: '4', [extA]: '2' } }),
      want: Queue,
    },
  ];
  it.each(nodeRows)('Test_isSchedulableAfterNodeChange: $name', (row) => {
    // newResourcePod requests no pods count; capacity without "pods" allows 0 pods, which the
    // fit check counts: give every node room for pods as st.MakeNode().Capacity leaves it.
    const withPods = (o: unknown) => {
      const n = o as Node;
      if (typeof o !== 'object' || !n?.status?.allocatable) return o;
      const cap = { pods: '32', ...n.status.allocatable };
      return { ...n, status: { capacity: cap, allocatable: cap } };
    };
    const pl = newFit();
    check({ ...row, oldObj: withPods(row.oldObj), newObj: withPods(row.newObj) }, (p, o, n) =>
      pl.isSchedulableAfterNodeChange(p, o, n),
    );
  });

  it('TestEventsToRegister: DeviceClass events with DRAExtendedResource, scale-down ones with InPlacePodVerticalScaling', () => {
    const label = (f: Fit) => f.eventsToRegister().map((e) => `${e.event.resource}/${e.event.actionType}`);
    expect(label(newFit(new FeatureSet('1.37')))).toEqual([
      `AssignedPod/${ActionType.Delete}`,
      `Node/${ActionType.Add | ActionType.UpdateNodeAllocatable}`,
      `resource.k8s.io/DeviceClass/${ActionType.Add | ActionType.Update}`,
      `AssignedPod/${ActionType.UpdatePodScaleDown}`,
      `TargetPod/${ActionType.UpdatePodScaleDown}`,
    ]);
    expect(label(newFit(new FeatureSet('1.35')))).toEqual([
      `AssignedPod/${ActionType.Delete}`,
      `Node/${ActionType.Add | ActionType.UpdateNodeAllocatable}`,
      `AssignedPod/${ActionType.UpdatePodScaleDown}`,
      `TargetPod/${ActionType.UpdatePodScaleDown}`,
    ]);
    expect(label(newFit(new FeatureSet('1.32')))).toEqual([
      `AssignedPod/${ActionType.Delete}`,
      `Node/${ActionType.Add | ActionType.UpdateNodeAllocatable}`,
    ]);
  });
});

describe('NodeResourcesFit Test_isSchedulableAfterDeviceClassChange (DRAExtendedResource)', () => {
  const gpuPod = (resource: string) => makePod({ name: 'p', requests: [{ [resource]: '1' }] });
  const memoryPod = makePod({ name: 'p', requests: [{ memory: '2' }] });
  const cls = (name?: string, extendedResourceName?: string) => ({
    kind: 'DeviceClass',
    metadata: name ? { name } : {},
    spec: extendedResourceName ? { extendedResourceName } : {},
  });
  const rows: Row[] = [
    { name: 'backoff-wrong-new-object', newObj: 'not-a-class', want: 'error' },
    { name: 'backoff-wrong-old-object', oldObj: 'not-a-class', newObj: cls(), want: 'error' },
    {
      name: 'skip-queue-on-class-nil-extended-resource-name-pointer',
      pod: memoryPod,
      oldObj: cls(),
      newObj: cls(),
      want: QueueSkip,
    },
    {
      name: 'skip-queue-on-class-same-extended-resource-name',
      pod: memoryPod,
      oldObj: cls(undefined, 'example.com/gpu'),
      newObj: cls(undefined, 'example.com/gpu'),
      want: QueueSkip,
    },
    {
      name: 'queue-on-class-add-with-implicit-extended-resource-name',
      pod: gpuPod('deviceclass.resource.kubernetes.io/gpuclass'),
      newObj: cls('gpuclass', 'example.com/gpu'),
      want: Queue,
    },
    {
      name: 'skip-on-class-add-with-implicit-extended-resource-name-not-matching',
      pod: gpuPod('deviceclass.resource.kubernetes.io/gpuclass'),
      newObj: cls('myclass', 'example.com/gpu'),
      want: QueueSkip,
    },
    {
      name: 'skip-on-class-add-with-explicit-extended-resource-name-not-matching',
      pod: gpuPod('example.com/othergpu'),
      newObj: cls('myclass', 'example.com/gpu'),
      want: QueueSkip,
    },
    {
      name: 'skip-on-class-update-with-implicit-extended-resource-name',
      pod: gpuPod('deviceclass.resource.kubernetes.io/gpuclass'),
      oldObj: cls('gpuclass'),
      newObj: cls('gpuclass', 'example.com/gpu'),
      want: QueueSkip,
    },
    {
      name: 'queue-on-class-add-with-extended-resource-name',
      pod: gpuPod('example.com/gpu'),
      newObj: cls(undefined, 'example.com/gpu'),
      want: Queue,
    },
    {
      name: 'queue-on-class-update-with-extended-resource-name',
      pod: gpuPod('example.com/gpu'),
      oldObj: cls(undefined, 'example.com/gpu1'),
      newObj: cls(undefined, 'example.com/gpu'),
      want: Queue,
    },
  ];
  it.each(rows)('$name', (row) => {
    const pl = new Fit(defaultFitArgs(undefined), new FakeHandle({ features: new FeatureSet('1.37') }));
    check(row, (p, o, n) => pl.isSchedulableAfterDeviceClassEvent(p, o, n));
  });
});

describe('SchedulingGates and DefaultPreemption', () => {
  it('TestIsSchedulableAfterUpdateTargetPodSchedulingGatesEliminated: the gate-lifting update queues', () => {
    const [reg] = new SchedulingGates().eventsToRegister();
    expect(reg.event).toEqual({
      resource: 'TargetPod',
      actionType: ActionType.UpdatePodSchedulingGatesEliminated,
    });
    expect(reg.queueingHintFn!(podWith({}), podWith({}), podWith({}))).toBe(Queue);
  });

  it('DefaultPreemption registers a QueueSkip for deleted pods only with async preemption', () => {
    const args = defaultPreemptionArgs(undefined);
    const at = (v: string) =>
      new DefaultPreemption(args, new FakeHandle({ features: new FeatureSet(v) })).eventsToRegister();
    expect(at('1.32')).toEqual([]);
    const [reg] = at('1.33');
    expect(reg.event).toEqual({ resource: 'AssignedPod', actionType: ActionType.Delete });
    expect(reg.queueingHintFn!(podWith({}), podWith({ nodeName: 'n' }), undefined)).toBe(QueueSkip);
  });
});

describe('PodTopologySpread (upstream podtopologyspread/plugin_test.go)', () => {
  const exists = (key: string) => ({ matchExpressions: [{ key, operator: 'Exists' as const }] });
  const fooSelector = exists('foo');
  const barSelector = exists('bar');
  type C = { key: string; selector: object; taints?: 'Honor' | 'Ignore' };
  const spreadPod = (constraints: C[], labels?: Record<string, string>): Pod => {
    const p = makePod({ name: 'p', uid: 'p', labels });
    p.spec!.topologySpreadConstraints = constraints.map((c) => ({
      maxSkew: 1,
      topologyKey: c.key,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: c.selector,
      ...(c.taints ? { nodeTaintsPolicy: c.taints } : {}),
    })) as NonNullable<Pod['spec']>['topologySpreadConstraints'];
    return p;
  };
  const zone = { key: 'zone', selector: fooSelector };
  const nodeC = { key: 'node', selector: fooSelector };
  const nodeBar = { key: 'node', selector: barSelector };
  const n = (labels: Record<string, string>, taints?: Taint[]) => node({ labels, taints });
  const other = (o: {
    labels?: Record<string, string>;
    nodeName?: string;
    nominated?: string;
    ns?: string;
  }): Pod => {
    const p = makePod({ name: 'p2', uid: 'p2', labels: o.labels, nodeName: o.nodeName, namespace: o.ns });
    return o.nominated ? ({ ...p, status: { nominatedNodeName: o.nominated } } as Pod) : p;
  };
  const newPTS = (features = new FeatureSet()) =>
    new PodTopologySpread({ defaultingType: 'List', defaultConstraints: [] }, new FakeHandle({ features }));

  const nodeRows: (Row & { oldNode?: Node; newNode?: Node })[] = [
    {
      name: 'node updates label which matches topologyKey',
      pod: spreadPod([zone]),
      oldObj: n({ zone: 'zone1' }),
      newObj: n({ zone: 'zone2' }),
      want: Queue,
    },
    {
      name: "node that doesn't match topologySpreadConstraints updates non-related label",
      pod: spreadPod([zone]),
      oldObj: n({ foo: 'bar1' }),
      newObj: n({ foo: 'bar2' }),
      want: QueueSkip,
    },
    {
      name: 'node that match topologySpreadConstraints adds non-related label',
      pod: spreadPod([zone, nodeC]),
      oldObj: n({ zone: 'zone1', node: 'node1', foo: 'bar' }),
      newObj: n({ zone: 'zone1', node: 'node1' }),
      want: QueueSkip,
    },
    {
      name: 'create node with non-related labels',
      pod: spreadPod([zone]),
      newObj: n({ foo: 'bar' }),
      want: QueueSkip,
    },
    {
      name: 'create node with related labels',
      pod: spreadPod([zone]),
      newObj: n({ zone: 'zone1' }),
      want: Queue,
    },
    {
      name: 'delete node with non-related labels',
      pod: spreadPod([zone]),
      oldObj: n({ foo: 'bar' }),
      want: QueueSkip,
    },
    {
      name: 'delete node with related labels',
      pod: spreadPod([zone]),
      oldObj: n({ zone: 'zone1' }),
      want: Queue,
    },
    {
      name: 'add node with related labels that only match one of topologySpreadConstraints',
      pod: spreadPod([zone, nodeC]),
      newObj: n({ zone: 'zone1' }),
      want: QueueSkip,
    },
    {
      name: 'add node with related labels that match all topologySpreadConstraints',
      pod: spreadPod([zone, nodeC]),
      newObj: n({ zone: 'zone1', node: 'node1' }),
      want: Queue,
    },
    {
      name: 'update node with related labels that only match one of topologySpreadConstraints',
      pod: spreadPod([zone, nodeC]),
      oldObj: n({ zone: 'zone1' }),
      newObj: n({ zone: 'zone1' }),
      want: QueueSkip,
    },
    {
      name: 'update node with related labels that match all topologySpreadConstraints',
      pod: spreadPod([zone, nodeC]),
      oldObj: n({ zone: 'zone1', node: 'node1' }),
      newObj: n({ zone: 'zone1', node: 'node2' }),
      want: Queue,
    },
    {
      name: 'update node with different taints that match all topologySpreadConstraints',
      pod: spreadPod([zone, nodeC]),
      oldObj: n({ zone: 'zone1', node: 'node1' }, [{ key: 'aaa', value: 'bbb', effect: 'NoSchedule' }]),
      newObj: n({ zone: 'zone1', node: 'node1' }, [{ key: 'ccc', value: 'bbb', effect: 'NoSchedule' }]),
      want: Queue,
    },
    {
      name: 'update node with different taints that only match one of topologySpreadConstraints',
      pod: spreadPod([zone, nodeC]),
      oldObj: n({ node: 'node1' }, [{ key: 'aaa', value: 'bbb', effect: 'NoSchedule' }]),
      newObj: n({ node: 'node1' }, [{ key: 'ccc', value: 'bbb', effect: 'NoSchedule' }]),
      want: QueueSkip,
    },
  ];
  it.each(nodeRows)('Test_isSchedulableAfterNodeChange: $name', (row) => {
    const pl = newPTS();
    check(row, (p, o, nn) => pl.isSchedulableAfterNodeChange(p, o, nn));
  });

  const target = spreadPod([zone], { foo: '' });
  const target2 = spreadPod([zone, nodeBar], { foo: '' });
  const podRows: Row[] = [
    {
      name: 'add pod with labels match topologySpreadConstraints selector',
      pod: target,
      newObj: other({ nodeName: 'fake-node', labels: { foo: '' } }),
      want: Queue,
    },
    { name: 'add un-scheduled pod', pod: target, newObj: other({ labels: { foo: '' } }), want: QueueSkip },
    {
      name: 'update un-scheduled pod',
      pod: target,
      newObj: other({ labels: { foo: '' } }),
      oldObj: other({ labels: { bar: '' } }),
      want: QueueSkip,
    },
    { name: 'delete un-scheduled pod', pod: target, oldObj: other({ labels: { foo: '' } }), want: QueueSkip },
    {
      name: 'add pod with different namespace',
      pod: target,
      newObj: other({ nodeName: 'fake-node', ns: 'fake-namespace', labels: { foo: '' } }),
      want: QueueSkip,
    },
    {
      name: "add pod with labels don't match topologySpreadConstraints selector",
      pod: target,
      newObj: other({ nodeName: 'fake-node', labels: { bar: '' } }),
      want: QueueSkip,
    },
    {
      name: 'delete pod with labels that match topologySpreadConstraints selector',
      pod: target,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: '' } }),
      want: Queue,
    },
    {
      name: "delete nominated pod with labels that don't match topologySpreadConstraints selector",
      pod: target,
      oldObj: other({ nominated: 'fake-node', labels: { bar: '' } }),
      want: QueueSkip,
    },
    {
      name: 'delete nominated pod with labels that match topologySpreadConstraints selector',
      pod: target,
      oldObj: other({ nominated: 'fake-node', labels: { foo: '' } }),
      want: Queue,
    },
    {
      name: "delete pod with labels that don't match topologySpreadConstraints selector",
      pod: target,
      oldObj: other({ nodeName: 'fake-node', labels: { bar: '' } }),
      want: QueueSkip,
    },
    {
      name: "update pod's non-related label",
      pod: target,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: '', bar: 'bar1' } }),
      newObj: other({ nodeName: 'fake-node', labels: { foo: '', bar: 'bar2' } }),
      want: QueueSkip,
    },
    {
      name: "add pod's label that matches topologySpreadConstraints selector",
      pod: target,
      oldObj: other({ nodeName: 'fake-node' }),
      newObj: other({ nodeName: 'fake-node', labels: { foo: '' } }),
      want: Queue,
    },
    {
      name: 'delete pod label that matches topologySpreadConstraints selector',
      pod: target,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: '' } }),
      newObj: other({ nodeName: 'fake-node' }),
      want: Queue,
    },
    {
      name: "change pod's label that matches topologySpreadConstraints selector",
      pod: target,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: 'foo1' } }),
      newObj: other({ nodeName: 'fake-node', labels: { foo: 'foo2' } }),
      want: QueueSkip,
    },
    {
      name: "change pod's label that doesn't match topologySpreadConstraints selector",
      pod: target,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: '', bar: 'bar1' } }),
      newObj: other({ nodeName: 'fake-node', labels: { foo: '', bar: 'bar2' } }),
      want: QueueSkip,
    },
    {
      name: "add pod's label that matches topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: target2,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: '' } }),
      newObj: other({ nodeName: 'fake-node', labels: { foo: '', bar: 'bar2' } }),
      want: Queue,
    },
    {
      name: "change pod's label that doesn't match topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: target2,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: '' } }),
      newObj: other({ nodeName: 'fake-node', labels: { foo: '', baz: '' } }),
      want: QueueSkip,
    },
    {
      name: "change pod's label that match topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: target2,
      oldObj: other({ nodeName: 'fake-node', labels: { foo: '', bar: '' } }),
      newObj: other({ nodeName: 'fake-node', labels: { foo: '', bar: 'bar2' } }),
      want: QueueSkip,
    },
  ];
  it.each(podRows)('Test_isSchedulableAfterAssignedPodChange: $name', (row) => {
    const pl = newPTS();
    check(row, (p, o, nn) => pl.isSchedulableAfterAssignedPodChange(p, o, nn));
  });

  const withTolerations = (labels?: Record<string, string>, tolerate = false): Pod => {
    const p = makePod({ name: 'p', uid: 'p', labels });
    if (tolerate) p.spec!.tolerations = [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }];
    return p;
  };
  const targetRows: (Row & { inclusionPolicy?: boolean })[] = [
    {
      name: 'the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new toleration',
      pod: spreadPod([{ ...zone, taints: 'Honor' }, nodeBar], { foo: '' }),
      oldObj: withTolerations({ foo: '' }),
      newObj: withTolerations({ foo: '' }, true),
      want: Queue,
      inclusionPolicy: true,
    },
    {
      name: 'the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor and has got a new toleration',
      pod: spreadPod([{ ...zone, taints: 'Ignore' }, nodeBar], { foo: '' }),
      oldObj: withTolerations({ foo: '' }),
      newObj: withTolerations({ foo: '' }, true),
      want: QueueSkip,
    },
    {
      name: 'the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of the constraint',
      pod: spreadPod([{ ...zone, taints: 'Ignore' }, nodeBar], { foo: '' }),
      oldObj: withTolerations(),
      newObj: withTolerations({ foo: '' }),
      want: Queue,
    },
    {
      name: 'the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label',
      pod: spreadPod([{ ...zone, taints: 'Ignore' }, nodeBar], { foo: '' }),
      oldObj: withTolerations(),
      newObj: withTolerations({ unrelated: '' }),
      want: QueueSkip,
    },
  ];
  it.each(targetRows)('Test_isSchedulableAfterTargetPodChange: $name', (row) => {
    const pl = newPTS(
      new FeatureSet('1.37', { NodeInclusionPolicyInPodTopologySpread: row.inclusionPolicy ?? false }),
    );
    check(row, (p, o, nn) => pl.isSchedulableAfterTargetPodChange(p, o, nn));
  });
});

describe('InterPodAffinity (upstream interpodaffinity/plugin_test.go)', () => {
  type Term = { topologyKey: string; labelSelector: object };
  const inTerm = (key: string, topologyKey: string, values: string[]): Term => ({
    topologyKey,
    labelSelector: { matchExpressions: [{ key, operator: 'In', values }] },
  });
  const existsTerm = (key: string, topologyKey: string): Term => ({
    topologyKey,
    labelSelector: { matchExpressions: [{ key, operator: 'Exists' }] },
  });
  const mk = (o: {
    name?: string;
    uid?: string;
    labels?: Record<string, string>;
    nodeName?: string;
    nominated?: string;
    affinity?: Term[];
    anti?: Term[];
  }): Pod => {
    const p = makePod({
      name: o.name ?? 'other',
      uid: o.uid ?? o.name ?? 'other',
      labels: o.labels,
      nodeName: o.nodeName,
    });
    if (o.affinity || o.anti) {
      p.spec!.affinity = {
        ...(o.affinity
          ? { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.affinity } }
          : {}),
        ...(o.anti ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.anti } } : {}),
      } as NonNullable<Pod['spec']>['affinity'];
    }
    return o.nominated ? ({ ...p, status: { nominatedNodeName: o.nominated } } as Pod) : p;
  };
  const scan = inTerm('service', 'region', ['securityscan', 'value2']);
  const aff = mk({ name: 'p', affinity: [scan] });
  const anti = mk({ name: 'p', anti: [scan] });
  const multi = mk({ name: 'p', affinity: [existsTerm('aaa', 'hostname'), existsTerm('bbb', 'hostname')] });
  const twoAnti = mk({
    name: 'p',
    anti: [inTerm('service', 'region', ['securityscan']), inTerm('app', 'region', ['web'])],
  });
  const node = 'fake-node';
  const podRows: Row[] = [
    {
      name: 'add a pod which matches the pod affinity',
      pod: aff,
      newObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      want: Queue,
    },
    {
      name: 'add an un-scheduled pod',
      pod: aff,
      newObj: mk({ labels: { service: 'securityscan' } }),
      want: QueueSkip,
    },
    {
      name: "add a pod which doesn't match the pod affinity",
      pod: aff,
      newObj: mk({ nodeName: node, labels: { aaa: 'a' } }),
      want: QueueSkip,
    },
    {
      name: 'update a pod from non-match to match pod affinity',
      pod: aff,
      newObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      oldObj: mk({ nodeName: node, labels: { aaa: 'a' } }),
      want: Queue,
    },
    {
      name: "the updating pod matches target pod's affinity both before and after label changes",
      pod: aff,
      newObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      oldObj: mk({ nodeName: node, labels: { service: 'value2' } }),
      want: QueueSkip,
    },
    {
      name: 'update an un-scheduled pod',
      pod: aff,
      newObj: mk({ labels: { service: 'securityscan' } }),
      oldObj: mk({ labels: { aaa: 'a' } }),
      want: QueueSkip,
    },
    {
      name: 'update a pod from match to non-match the pod affinity',
      pod: aff,
      newObj: mk({ nodeName: node, labels: { aaa: 'a' } }),
      oldObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      want: QueueSkip,
    },
    {
      name: "update a pod from match to non-match pod's affinity - multiple terms case",
      pod: multi,
      newObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      oldObj: mk({ nodeName: node, labels: { aaa: 'a' } }),
      want: QueueSkip,
    },
    {
      name: "update a pod from non-match to match pod's affinity - multiple terms case",
      pod: multi,
      newObj: mk({ nodeName: node, labels: { aaa: '', bbb: '' } }),
      oldObj: mk({ nodeName: node, labels: { aaa: 'a' } }),
      want: Queue,
    },
    {
      name: 'modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity',
      pod: anti,
      newObj: mk({ nodeName: node, labels: { service: 'aaaa' } }),
      oldObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      want: Queue,
    },
    {
      name: 'modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity',
      pod: anti,
      newObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      oldObj: mk({ nodeName: node, labels: { service: 'bbb' } }),
      want: QueueSkip,
    },
    {
      name: "delete a pod which doesn't match pod's anti-affinity",
      pod: anti,
      oldObj: mk({ nodeName: node, labels: { aaa: 'a' } }),
      want: QueueSkip,
    },
    {
      name: "delete a pod which matches pod's anti-affinity",
      pod: anti,
      oldObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      want: Queue,
    },
    {
      name: 'delete a pod with anti-affinity that matches pending pod',
      pod: mk({ name: 'p', labels: { service: 'securityscan' } }),
      oldObj: mk({ nodeName: node, anti: [scan] }),
      want: Queue,
    },
    {
      name: "delete a pod with anti-affinity that doesn't match pending pod",
      pod: mk({ name: 'p', labels: { service: 'foo' } }),
      oldObj: mk({ nodeName: node, anti: [scan] }),
      want: QueueSkip,
    },
    {
      name: "delete a pod which doesn't match pending pod's anti-affinity and has anti-affinity that doesn't match pending pod",
      pod: mk({ name: 'p', anti: [scan], labels: { service: 'foo' } }),
      oldObj: mk({ nodeName: node, anti: [scan], labels: { service: 'foo' } }),
      want: QueueSkip,
    },
    {
      name: "delete a nominated pod which doesn't match pod's anti-affinity",
      pod: anti,
      oldObj: mk({ nominated: node, labels: { aaa: 'a' } }),
      want: QueueSkip,
    },
    {
      name: "delete a nominated pod which matches pod's anti-affinity",
      pod: anti,
      oldObj: mk({ nominated: node, labels: { service: 'securityscan' } }),
      want: Queue,
    },
    {
      name: "modify pod label to change it from matching only one of target pod's anti-affinity terms to matching none",
      pod: twoAnti,
      newObj: mk({ nodeName: node, labels: { service: 'foo', app: 'bar' } }),
      oldObj: mk({ nodeName: node, labels: { service: 'securityscan', app: 'bar' } }),
      want: Queue,
    },
    {
      name: "modify pod label but it still matches one of target pod's anti-affinity terms",
      pod: twoAnti,
      newObj: mk({ nodeName: node, labels: { service: 'foo', app: 'web' } }),
      oldObj: mk({ nodeName: node, labels: { service: 'securityscan', app: 'bar' } }),
      want: QueueSkip,
    },
    {
      name: "delete a pod which matches only one of target pod's anti-affinity terms",
      pod: twoAnti,
      oldObj: mk({ nodeName: node, labels: { service: 'securityscan' } }),
      want: Queue,
    },
    {
      name: 'delete a pod with anti-affinity that matches pending pod on only one term',
      pod: mk({ name: 'p', labels: { service: 'securityscan' } }),
      oldObj: mk({
        nodeName: node,
        anti: [inTerm('service', 'region', ['securityscan']), inTerm('app', 'region', ['web'])],
      }),
      want: Queue,
    },
  ];
  const newIPA = () => new InterPodAffinity(defaultInterPodAffinityArgs(undefined), new FakeHandle());
  it.each(podRows)('Test_isSchedulableAfterAssignedPodChange: $name', (row) => {
    const pl = newIPA();
    check(row, (p, o, n) => pl.isSchedulableAfterAssignedPodChange(p, o, n));
  });

  it('Test_isSchedulableAfterTargetPodUpdateLabel', () => {
    const reg = newIPA()
      .eventsToRegister()
      .find((r) => r.event.resource === 'TargetPod')!;
    expect(reg.event.actionType).toBe(ActionType.UpdatePodLabel);
    const p = mk({ name: 'p', labels: { foo: 'baz' } });
    expect(reg.queueingHintFn!(p, p, p)).toBe(Queue);
  });

  const antiZone = mk({
    name: 'p',
    anti: [{ topologyKey: 'zone', labelSelector: { matchLabels: { another: 'label' } } }],
  });
  const affZone = mk({ name: 'p', affinity: [inTerm('service', 'zone', ['securityscan', 'value2'])] });
  const affRegion = mk({ name: 'p', affinity: [inTerm('service', 'region', ['securityscan', 'value2'])] });
  const n = (labels?: Record<string, string>) =>
    ({ kind: 'Node', metadata: { name: 'node-a', labels } }) as Node;
  const nodeRows: Row[] = [
    {
      name: 'add a new node with matched pod affinity topologyKey',
      pod: affZone,
      newObj: n({ zone: 'zone1' }),
      want: Queue,
    },
    {
      name: 'add a new node without matched topologyKey',
      pod: affRegion,
      newObj: n({ zone: 'zone1' }),
      want: QueueSkip,
    },
    {
      name: 'update node label but not topologyKey',
      pod: affZone,
      oldObj: n({ aaa: 'a' }),
      newObj: n({ aaa: 'b' }),
      want: QueueSkip,
    },
    {
      name: "update node label that isn't related to the pod affinity",
      pod: affZone,
      oldObj: n({ zone: 'zone1' }),
      newObj: n({ zone: 'zone1', 'unrelated-label': 'unrelated' }),
      want: QueueSkip,
    },
    {
      name: 'update node with different affinity topologyKey value',
      pod: affZone,
      oldObj: n({ zone: 'zone1' }),
      newObj: n({ zone: 'zone2' }),
      want: Queue,
    },
    {
      name: 'update node to have the affinity topology label',
      pod: affZone,
      oldObj: n({ aaa: 'a' }),
      newObj: n({ zone: 'zone1' }),
      want: Queue,
    },
    {
      name: 'add a new node with matched pod anti-affinity topologyKey',
      pod: antiZone,
      newObj: n({ zone: 'zone1' }),
      want: Queue,
    },
    {
      name: 'add a new node without matched pod anti-affinity topologyKey',
      pod: antiZone,
      newObj: n(),
      want: Queue,
    },
    {
      name: "update node label that isn't related to the pod anti-affinity",
      pod: antiZone,
      oldObj: n({ zone: 'zone1' }),
      newObj: n({ zone: 'zone1', 'unrelated-label': 'unrelated' }),
      want: QueueSkip,
    },
    {
      name: 'update node with different anti-affinity topologyKey value',
      pod: antiZone,
      oldObj: n({ zone: 'zone1' }),
      newObj: n({ zone: 'zone2' }),
      want: Queue,
    },
    {
      name: 'update node to have the anti-affinity topology label',
      pod: antiZone,
      oldObj: n({ aaa: 'a' }),
      newObj: n({ zone: 'zone1' }),
      want: QueueSkip,
    },
    {
      name: 'update node label not to have anti-affinity topology label',
      pod: antiZone,
      oldObj: n({ zone: 'zone1' }),
      newObj: n({ aaa: 'a' }),
      want: Queue,
    },
  ];
  it.each(nodeRows)('Test_isSchedulableAfterNodeChange: $name', (row) => {
    const pl = newIPA();
    check(row, (p, o, nn) => pl.isSchedulableAfterNodeChange(p, o, nn));
  });
});

describe('VolumeBinding (upstream volumebinding/volume_binding_test.go)', () => {
  // Upstream's "unexpected objects" rows pass an empty Go struct, which TypeScript cannot tell
  // from an empty object: a string stands for it here.
  const wrong = 'not-an-object';
  const pl = () => new VolumeBinding(defaultVolumeBindingArgs(undefined, new FeatureSet()), new FakeHandle());
  const podA = (
    o: { ns?: string; pvcs?: string[]; ephemeral?: string[]; emptyDir?: boolean; csi?: string } = {},
  ): Pod => {
    const p = makePod({ name: 'pod-a', namespace: o.ns });
    p.spec!.volumes = [
      ...(o.emptyDir ? [{ name: 'e', emptyDir: {} }] : []),
      ...(o.pvcs ?? []).map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })),
      ...(o.ephemeral ?? []).map((v) => ({ name: v, ephemeral: { volumeClaimTemplate: { spec: {} } } })),
      ...(o.csi ? [{ name: 'csi', csi: { driver: o.csi } }] : []),
    ] as NonNullable<Pod['spec']>['volumes'];
    return p;
  };
  const pvc = (name: string) => ({ metadata: { name, namespace: 'default' }, spec: {} });
  const csiNode = (migrated?: string) => ({
    metadata: {
      name: 'csinode-a',
      annotations: migrated ? { 'storage.alpha.kubernetes.io/migrated-plugins': migrated } : undefined,
    },
  });
  it.each<Row>([
    { name: 'unexpected objects are passed', oldObj: wrong, newObj: wrong, want: 'error' },
    { name: 'CSINode is newly created', newObj: csiNode(), want: Queue },
    {
      name: "CSINode's migrated-plugins annotations is added",
      oldObj: csiNode('test1'),
      newObj: csiNode('test1, test2'),
      want: Queue,
    },
    {
      name: "CSINode's migrated-plugins annotation is updated",
      oldObj: csiNode('test1'),
      newObj: csiNode('test2'),
      want: Queue,
    },
    {
      name: 'CSINode is updated but migrated-plugins annotation gets unchanged',
      oldObj: csiNode('test1'),
      newObj: csiNode('test1'),
      want: QueueSkip,
    },
  ])('TestIsSchedulableAfterCSINodeChange: $name', (row) => {
    const p = pl();
    check({ ...row, pod: podA() }, (pod, o, n) => p.isSchedulableAfterCSINodeChange(pod, o, n));
  });

  it.each<Row>([
    {
      name: 'pod has no pvc or ephemeral volumes',
      pod: podA({ emptyDir: true }),
      oldObj: pvc('pvc-b'),
      newObj: pvc('pvc-b'),
      want: QueueSkip,
    },
    {
      name: 'pvc with the same name as the one used by the pod in a different namespace is modified',
      pod: podA({ ns: 'ns-a', pvcs: ['pvc-a', 'pvc-b'] }),
      newObj: pvc('pvc-b'),
      want: QueueSkip,
    },
    {
      name: 'pod has no pvc that is being modified',
      pod: podA({ pvcs: ['pvc-a', 'pvc-c'] }),
      oldObj: pvc('pvc-b'),
      newObj: pvc('pvc-b'),
      want: QueueSkip,
    },
    {
      name: 'pod has no generic ephemeral volume that is being modified',
      pod: podA({ ephemeral: ['ephemeral-a', 'ephemeral-c'] }),
      oldObj: pvc('pod-a-ephemeral-b'),
      newObj: pvc('pod-a-ephemeral-b'),
      want: QueueSkip,
    },
    {
      name: 'pod has the pvc that is being modified',
      pod: podA({ pvcs: ['pvc-a', 'pvc-b'] }),
      oldObj: pvc('pvc-b'),
      newObj: pvc('pvc-b'),
      want: Queue,
    },
    {
      name: 'pod has the generic ephemeral volume that is being modified',
      pod: podA({ ephemeral: ['ephemeral-a', 'ephemeral-b'] }),
      oldObj: pvc('pod-a-ephemeral-b'),
      newObj: pvc('pod-a-ephemeral-b'),
      want: Queue,
    },
    { name: 'type conversion error', pod: podA(), oldObj: wrong, newObj: wrong, want: 'error' },
  ])('TestIsSchedulableAfterPersistentVolumeClaimChange: $name', (row) => {
    const p = pl();
    check(row, (pod, o, n) => p.isSchedulableAfterPersistentVolumeClaimChange(pod, o, n));
  });

  const sc = (topologies?: object[]) => ({
    metadata: { name: 'sc-a' },
    ...(topologies ? { allowedTopologies: topologies } : {}),
  });
  it.each<Row>([
    { name: 'When a new StorageClass is created, it returns Queue', newObj: sc(), want: Queue },
    {
      name: 'When the AllowedTopologies are changed, it returns Queue',
      oldObj: sc(),
      newObj: sc([{ matchLabelExpressions: [{ key: 'kubernetes.io/hostname', values: ['node-a'] }] }]),
      want: Queue,
    },
    {
      name: 'When there are no changes to the StorageClass, it returns QueueSkip',
      oldObj: sc(),
      newObj: sc(),
      want: QueueSkip,
    },
    { name: 'type conversion error', oldObj: wrong, newObj: wrong, want: 'error' },
  ])('TestIsSchedulableAfterStorageClassChange: $name', (row) => {
    const p = pl();
    check({ ...row, pod: podA() }, (pod, o, n) => p.isSchedulableAfterStorageClassChange(pod, o, n));
  });

  const cap = (capacity?: number, maximumVolumeSize?: number) => ({
    metadata: { name: 'cap-a' },
    storageClassName: 'sc',
    ...(capacity !== undefined ? { capacity: String(capacity) } : {}),
    ...(maximumVolumeSize !== undefined ? { maximumVolumeSize: String(maximumVolumeSize) } : {}),
  });
  it.each<Row>([
    { name: 'When a new CSIStorageCapacity is created, it returns Queue', newObj: cap(), want: Queue },
    {
      name: 'When the volume limit is increase(Capacity set), it returns Queue',
      oldObj: cap(),
      newObj: cap(100),
      want: Queue,
    },
    {
      name: 'When the volume limit is increase(MaximumVolumeSize set), it returns Queue',
      oldObj: cap(),
      newObj: cap(undefined, 100),
      want: Queue,
    },
    {
      name: 'When the volume limit is increase(Capacity increase), it returns Queue',
      oldObj: cap(50),
      newObj: cap(100),
      want: Queue,
    },
    {
      name: 'When the volume limit is increase(MaximumVolumeSize unset), it returns Queue',
      oldObj: cap(100, 50),
      newObj: cap(100),
      want: Queue,
    },
    {
      name: 'When the volume limit is increase(MaximumVolumeSize increase), it returns Queue',
      oldObj: cap(100, 50),
      newObj: cap(100, 60),
      want: Queue,
    },
    {
      name: 'When there are no changes to the CSIStorageCapacity, it returns QueueSkip',
      oldObj: cap(100, 50),
      newObj: cap(100, 50),
      want: QueueSkip,
    },
    {
      name: 'When the volume limit is equal(Capacity), it returns QueueSkip',
      oldObj: cap(100),
      newObj: cap(100),
      want: QueueSkip,
    },
    {
      name: 'When the volume limit is equal(MaximumVolumeSize unset), it returns QueueSkip',
      oldObj: cap(100, 50),
      newObj: cap(50),
      want: QueueSkip,
    },
    {
      name: 'When the volume limit is decrease(Capacity), it returns QueueSkip',
      oldObj: cap(100),
      newObj: cap(90),
      want: QueueSkip,
    },
    {
      name: 'When the volume limit is decrease(MaximumVolumeSize), it returns QueueSkip',
      oldObj: cap(undefined, 100),
      newObj: cap(undefined, 90),
      want: QueueSkip,
    },
    { name: 'type conversion error', oldObj: wrong, newObj: wrong, want: 'error' },
  ])('TestIsSchedulableAfterCSIStorageCapacityChange: $name', (row) => {
    const p = pl();
    check({ ...row, pod: podA() }, (pod, o, n) => p.isSchedulableAfterCSIStorageCapacityChange(pod, o, n));
  });

  const driver = (name: string, storageCapacity?: boolean) => ({
    metadata: { name },
    spec: storageCapacity === undefined ? {} : { storageCapacity },
  });
  it.each<Row>([
    {
      name: 'pod has no CSIDriver',
      pod: podA(),
      newObj: driver('test1', true),
      oldObj: driver('test1', true),
      want: QueueSkip,
    },
    { name: 'unexpected objects are passed', pod: podA(), newObj: wrong, oldObj: wrong, want: 'error' },
    {
      name: 'driver name in pod and csidriver name are different',
      pod: podA({ csi: 'test1' }),
      newObj: driver('test2', false),
      oldObj: driver('test2', true),
      want: QueueSkip,
    },
    {
      name: 'original StorageCapacity is nil',
      pod: podA({ csi: 'test1' }),
      newObj: driver('test1'),
      oldObj: driver('test1', false),
      want: QueueSkip,
    },
    {
      name: 'modified StorageCapacity is nil',
      pod: podA({ csi: 'test1' }),
      newObj: driver('test1'),
      oldObj: driver('test1', true),
      want: Queue,
    },
    {
      name: 'modified StorageCapacity is true',
      pod: podA({ csi: 'test1' }),
      newObj: driver('test1', true),
      oldObj: driver('test1', true),
      want: QueueSkip,
    },
    {
      name: 'modified StorageCapacity is false',
      pod: podA({ csi: 'test1' }),
      newObj: driver('test1', false),
      oldObj: driver('test1', true),
      want: Queue,
    },
  ])('TestIsSchedulableAfterCSIDriverChange: $name', (row) => {
    const p = pl();
    check(row, (pod, o, n) => p.isSchedulableAfterCSIDriverChange(pod, o, n));
  });
});

describe('VolumeRestrictions (upstream volumerestrictions/volume_restrictions_test.go)', () => {
  const withVolumes = (name: string, volumes: object[], ns = 'default'): Pod => {
    const p = makePod({ name, namespace: ns });
    p.spec!.volumes = volumes.map((v, i) => ({ name: `v${i}`, ...v })) as NonNullable<Pod['spec']>['volumes'];
    return p;
  };
  const gce = (pdName: string) => ({ gcePersistentDisk: { pdName } });
  const aws = (volumeID: string) => ({ awsElasticBlockStore: { volumeID } });
  const rbd = (monitors: string[]) => ({ rbd: { monitors, pool: 'foo', image: 'bar', fsType: 'ext4' } });
  const iscsi = (iqn: string) => ({ iscsi: { targetPortal: '127.0.0.1:3260', iqn, fsType: 'ext4', lun: 0 } });
  const claim = (claimName: string) => ({ persistentVolumeClaim: { claimName } });
  const pl = () => new VolumeRestrictions(new FakeHandle());
  it.each<Row>([
    {
      name: 'queue-new-object-gcedisk-conflict',
      pod: withVolumes('p', [gce('foo')]),
      oldObj: withVolumes('q', [gce('foo')]),
      want: Queue,
    },
    {
      name: 'skip-new-object-gcedisk-no-conflict',
      pod: withVolumes('p', [gce('foo')]),
      oldObj: withVolumes('q', [gce('bar')]),
      want: QueueSkip,
    },
    {
      name: 'queue-new-object-awsdisk-conflict',
      pod: withVolumes('p', [aws('foo')]),
      oldObj: withVolumes('q', [aws('foo')]),
      want: Queue,
    },
    {
      name: 'skip-new-object-awsdisk-no-conflict',
      pod: withVolumes('p', [aws('foo')]),
      oldObj: withVolumes('q', [aws('bar')]),
      want: QueueSkip,
    },
    {
      name: 'queue-new-object-rbddisk-conflict',
      pod: withVolumes('p', [rbd(['a', 'b'])]),
      oldObj: withVolumes('q', [rbd(['a', 'b'])]),
      want: Queue,
    },
    {
      name: 'skip-new-object-rbddisk-no-conflict',
      pod: withVolumes('p', [rbd(['a', 'b'])]),
      oldObj: withVolumes('q', [rbd(['c', 'd'])]),
      want: QueueSkip,
    },
    {
      name: 'queue-new-object-iscsidisk-conflict',
      pod: withVolumes('p', [iscsi('iqn.2016-12.server:storage.target01')]),
      oldObj: withVolumes('q', [iscsi('iqn.2016-12.server:storage.target01')]),
      want: Queue,
    },
    {
      name: 'skip-new-object-iscsidisk-no-conflict',
      pod: withVolumes('p', [iscsi('iqn.2016-12.server:storage.target01')]),
      oldObj: withVolumes('q', [iscsi('iqn.2017-12.server:storage.target01')]),
      want: QueueSkip,
    },
    {
      name: 'queue-has-same-claim',
      pod: withVolumes('pod1', [claim('claim-rwop')]),
      oldObj: withVolumes('pod2', [claim('claim-rwop')]),
      want: Queue,
    },
    {
      name: 'skip-no-same-claim',
      pod: withVolumes('pod1', [claim('claim-1-rwop')]),
      oldObj: withVolumes('pod2', [claim('claim-2-rwop')]),
      want: QueueSkip,
    },
  ])('Test_isSchedulableAfterAssignedPodDeleted: $name', (row) => {
    const p = pl();
    check(row, (pod, o) => p.isSchedulableAfterAssignedPodDeleted(pod, o, undefined));
  });

  const pvc = (name: string, namespace = 'default') => ({
    metadata: { name, namespace },
    spec: { accessModes: ['ReadWriteMany'] },
  });
  const onePVC = withVolumes('pod-with-one-pvc', [claim('claim-with-rwx-1')]);
  const twoPVCs = withVolumes('pod-with-two-pvcs', [claim('claim-with-rwx-1'), claim('claim-with-rwx-2')]);
  const otherNs = withVolumes('pod-with-one-pvc', [claim('claim-with-rwx-1')], 'kube-system');
  it.each<Row>([
    { name: 'queue-new-object-pvc-belong-pod', pod: twoPVCs, newObj: pvc('claim-with-rwx-1'), want: Queue },
    { name: 'skip-new-object-unused', pod: onePVC, newObj: pvc('claim-with-rwx-2'), want: QueueSkip },
    { name: 'skip-new-object-not-belong-pod', pod: onePVC, newObj: pvc('claim-with-rwx-2'), want: QueueSkip },
    {
      name: 'skip-new-object-namespace-not-equal-pod',
      pod: otherNs,
      newObj: pvc('claim-with-rwx-1'),
      want: QueueSkip,
    },
  ])('Test_isSchedulableAfterPersistentVolumeClaimChange: $name', (row) => {
    const p = pl();
    check(row, (pod, o, n) => p.isSchedulableAfterPersistentVolumeClaimAdded(pod, o, n));
  });
});

describe('VolumeZone (upstream volumezone/volume_zone_test.go)', () => {
  const podWithVolume = (claimName?: string): Pod => {
    const p = makePod({ name: 'pod_1' });
    if (claimName) p.spec!.volumes = [{ name: 'v', persistentVolumeClaim: { claimName } }];
    return p;
  };
  const pvc = (name: string, namespace: string, volumeName: string) => ({
    metadata: { name, namespace },
    spec: { volumeName },
  });
  const pl = () => new VolumeZone(new FakeHandle());
  it.each<Row>([
    { name: 'error-wrong-new-object', pod: podWithVolume('PVC_1'), newObj: 'not-a-pvc', want: 'error' },
    {
      name: 'pvc-was-added-but-pod-refers-no-pvc',
      pod: podWithVolume(),
      newObj: pvc('PVC_1', 'default', 'Vol_1'),
      want: QueueSkip,
    },
    {
      name: 'pvc-was-added-and-pod-was-bound-to-different-pvc',
      pod: podWithVolume('PVC_2'),
      newObj: pvc('PVC_1', 'default', 'Vol_1'),
      want: QueueSkip,
    },
    {
      name: 'pvc-was-added-and-pod-was-bound-to-pvc-but-different-ns',
      pod: podWithVolume('PVC_1'),
      newObj: pvc('PVC_1', 'ns1', 'Vol_1'),
      want: QueueSkip,
    },
    {
      name: 'pvc-was-added-and-pod-was-bound-to-the-pvc',
      pod: podWithVolume('PVC_1'),
      newObj: pvc('PVC_1', 'default', 'Vol_1'),
      want: Queue,
    },
    {
      name: 'pvc-was-updated-and-pod-was-bound-to-the-pvc',
      pod: podWithVolume('PVC_1'),
      oldObj: pvc('PVC_1', 'default', ''),
      newObj: pvc('PVC_1', 'default', 'Vol_1'),
      want: Queue,
    },
    {
      name: 'pvc-was-updated-but-pod-refers-no-pvc',
      pod: podWithVolume(),
      oldObj: pvc('PVC_1', 'default', ''),
      newObj: pvc('PVC_1', 'default', 'Vol_1'),
      want: QueueSkip,
    },
  ])('TestIsSchedulableAfterPersistentVolumeClaimAdded: $name', (row) => {
    const p = pl();
    check(row, (pod, o, n) => p.isSchedulableAfterPersistentVolumeClaimChange(pod, o, n));
  });

  it.each<Row>([
    { name: 'error-wrong-new-object', newObj: 'not-a-storageclass', want: 'error' },
    { name: "sc-doesn't-have-volume-binding-mode", newObj: { metadata: { name: 'SC_1' } }, want: QueueSkip },
    {
      name: 'new-sc-is-wait-for-first-consumer-mode',
      newObj: { metadata: { name: 'SC_1' }, volumeBindingMode: 'WaitForFirstConsumer' },
      want: Queue,
    },
  ])('TestIsSchedulableAfterStorageClassAdded: $name', (row) => {
    const p = pl();
    check({ ...row, pod: podWithVolume('PVC_1') }, (pod, o, n) =>
      p.isSchedulableAfterStorageClassAdded(pod, o, n),
    );
  });

  const pv = (labels?: Record<string, string>) => ({ metadata: { name: 'Vol_1', labels } });
  const betaZone = 'failure-domain.beta.kubernetes.io/zone';
  it.each<Row>([
    { name: 'error-wrong-new-object', newObj: 'not-a-pv', want: 'error' },
    { name: 'error-wrong-old-object', oldObj: 'not-a-pv', newObj: pv(), want: 'error' },
    { name: 'new-pv-was-added', newObj: pv({ [betaZone]: 'us-west1-b' }), want: Queue },
    {
      name: 'pv-was-updated-and-changed-topology',
      oldObj: pv({ [betaZone]: 'us-west1-a' }),
      newObj: pv({ [betaZone]: 'us-west1-b' }),
      want: Queue,
    },
    {
      name: 'pv-was-updated-and-added-topology-label',
      oldObj: pv({ [betaZone]: 'us-west1-a' }),
      newObj: pv({ [betaZone]: 'us-west1-a', 'topology.kubernetes.io/zone': 'zone' }),
      want: Queue,
    },
    {
      name: 'pv-was-updated-but-no-topology-is-changed',
      oldObj: pv({ [betaZone]: 'us-west1-a', 'topology.kubernetes.io/zone': 'zone' }),
      newObj: pv({ [betaZone]: 'us-west1-a', 'topology.kubernetes.io/zone': 'zone' }),
      want: QueueSkip,
    },
  ])('TestIsSchedulableAfterPersistentVolumeChange: $name', (row) => {
    const p = pl();
    check({ ...row, pod: podWithVolume('PVC_1') }, (pod, o, n) =>
      p.isSchedulableAfterPersistentVolumeChange(pod, o, n),
    );
  });
});

describe('NodeVolumeLimits (upstream nodevolumelimits/csi_test.go QHint tables)', () => {
  const pl = () => new CSILimits(new FakeHandle());
  const withVolumes = (o: { name?: string; ns?: string; nodeName?: string; volumes?: object[] }): Pod => {
    const p = makePod({ name: o.name ?? 'p', namespace: o.ns, nodeName: o.nodeName });
    if (o.volumes)
      p.spec!.volumes = o.volumes.map((v, i) => ({ name: `v${i}`, ...v })) as NonNullable<
        Pod['spec']
      >['volumes'];
    return p;
  };
  const claim = (claimName: string) => ({ persistentVolumeClaim: { claimName } });
  const ebs = { awsElasticBlockStore: { volumeID: 'test' } };
  const gce = { gcePersistentDisk: { pdName: 'test' } };
  const podEbs = withVolumes({ volumes: [claim('csi-ebs.csi.aws.com-2')] });

  it.each<Row>([
    {
      name: 'return a Queue when a deleted pod has a PVC',
      pod: podEbs,
      oldObj: withVolumes({ name: 'd', nodeName: 'csiNode', volumes: [claim('placeholder')] }),
      want: Queue,
    },
    {
      name: 'return a Queue when a deleted pod has a inline migratable volume',
      pod: podEbs,
      oldObj: withVolumes({
        name: 'd',
        nodeName: 'csiNode',
        volumes: [{ awsElasticBlockStore: { volumeID: '' } }],
      }),
      want: Queue,
    },
    {
      name: "return a QueueSkip when a deleted pod doesn't have any volume",
      pod: podEbs,
      oldObj: withVolumes({ name: 'd', nodeName: 'csiNode' }),
      want: QueueSkip,
    },
    {
      name: 'return a QueueSkip when a deleted pod is not scheduled.',
      pod: podEbs,
      oldObj: withVolumes({ name: 'd', volumes: [claim('csi-ebs.csi.aws.com-0')] }),
      want: QueueSkip,
    },
  ])('TestCSILimitsQHint: $name', (row) => {
    const p = pl();
    check(row, (pod, o, n) => p.isSchedulableAfterAssignedPodDeleted(pod, o, n));
  });

  const pvc = (name: string, namespace: string) => ({ metadata: { name, namespace }, spec: {} });
  it.each<Row>([
    {
      name: "a pod isn't in the same namespace as an added PVC",
      pod: withVolumes({ ns: 'ns1' }),
      newObj: pvc('', 'ns2'),
      want: QueueSkip,
    },
    {
      name: 'a pod is in the same namespace as an added PVC',
      pod: withVolumes({ ns: 'ns1', volumes: [claim('pvc1')] }),
      newObj: pvc('pvc1', 'ns1'),
      want: Queue,
    },
    {
      name: 'a pod has an ephemeral volume related to an added PVC',
      pod: (() => {
        const p = makePod({ name: 'pod1', namespace: 'ns1' });
        p.spec!.volumes = [{ name: 'ephemeral', ephemeral: {} }];
        return p;
      })(),
      newObj: pvc('pod1-ephemeral', 'ns1'),
      want: Queue,
    },
    {
      name: "a pod doesn't have the same PVC as an added PVC",
      pod: withVolumes({ ns: 'ns1', volumes: [claim('pvc1')] }),
      newObj: pvc('pvc2', 'ns1'),
      want: QueueSkip,
    },
    {
      name: "a pod doesn't have any PVC attached",
      pod: withVolumes({ ns: 'ns1' }),
      newObj: pvc('pvc2', 'ns1'),
      want: QueueSkip,
    },
  ])('TestCSILimitsAddedPVCQHint: $name', (row) => {
    const p = pl();
    check(row, (pod, o, n) => p.isSchedulableAfterPVCAdded(pod, o, n));
  });

  const va = (attacher: string) => ({
    metadata: { name: 'volumeattachment1' },
    spec: { nodeName: 'fake-node', attacher },
  });
  it.each<Row>([
    {
      name: 'a pod has PVC when VolumeAttachment is deleting',
      pod: withVolumes({ ns: 'ns1', volumes: [claim('pvc1')] }),
      oldObj: va('test.storage.gke.io'),
      want: Queue,
    },
    {
      name: 'a pod has an Inline Migratable volume (AWSEBSDriver) when VolumeAttachment (AWSEBSDriver) is deleting (match)',
      pod: withVolumes({ ns: 'ns1', volumes: [ebs] }),
      oldObj: va('ebs.csi.aws.com'),
      want: Queue,
    },
    {
      name: 'a pod has an Inline Migratable volume (GCEPDDriver) when VolumeAttachment (AWSEBSDriver) is deleting (no match)',
      pod: withVolumes({ ns: 'ns1', volumes: [gce] }),
      oldObj: va('ebs.csi.aws.com'),
      want: QueueSkip,
    },
    {
      name: 'a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment (AWSEBSDriver) is deleting',
      pod: withVolumes({ ns: 'ns1', volumes: [ebs, claim('pvc1')] }),
      oldObj: va('ebs.csi.aws.com'),
      want: Queue,
    },
    {
      name: 'a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment (another driver) is deleting',
      pod: withVolumes({ ns: 'ns1', volumes: [ebs, claim('pvc1')] }),
      oldObj: va('test.storage.gke.io'),
      want: Queue,
    },
    {
      name: 'a pod has no PVC when VolumeAttachment is deleting',
      pod: withVolumes({ ns: 'ns1' }),
      oldObj: va('test.storage.gke.io'),
      want: QueueSkip,
    },
  ])('TestCSILimitsDeletedVolumeAttachmentQHint: $name', (row) => {
    const p = pl();
    check(row, (pod, o, n) => p.isSchedulableAfterVolumeAttachmentDeleted(pod, o, n));
  });

  const csiNode = (count: number) => ({
    metadata: { name: 'test-node' },
    spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'test-node', allocatable: { count } }] },
  });
  it.each<Row>([
    { name: 'limit raised, queue', oldObj: csiNode(1), newObj: csiNode(2), want: Queue },
    { name: 'limit decreased, skip queueing', oldObj: csiNode(2), newObj: csiNode(1), want: QueueSkip },
    { name: 'limit unchanged, skip queueing', oldObj: csiNode(1), newObj: csiNode(1), want: QueueSkip },
  ])('TestCSILimitsAfterCSINodeUpdatedQHint: $name', (row) => {
    const p = pl();
    check(
      {
        ...row,
        pod: withVolumes({ name: 'test-pod', ns: 'ns1', volumes: [claim('csi-ebs.csi.aws.com-0')] }),
      },
      (pod, o, n) => p.isSchedulableAfterCSINodeUpdated(pod, o, n),
    );
  });
});

describe('NodeDeclaredFeatures (upstream TestEventsToRegister; its pod-update rows need feature inference, not modelled)', () => {
  const node = (declaredFeatures?: string[]) => ({
    kind: 'Node',
    metadata: { name: 'n' },
    status: declaredFeatures ? { declaredFeatures } : {},
  });
  it('registers Node Add/UpdateNodeDeclaredFeature and TargetPod Update only with the gate on', () => {
    const at = (v: string) =>
      new NodeDeclaredFeatures(new FeatureSet(v).enabled('NodeDeclaredFeatures'))
        .eventsToRegister()
        .map((e) => e.event);
    expect(at('1.35')).toEqual([]);
    expect(at('1.36')).toEqual([
      { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeDeclaredFeature },
      { resource: 'TargetPod', actionType: ActionType.Update },
    ]);
  });
  it.each<Row>([
    { name: 'node added', newObj: node(['featA']), want: Queue },
    {
      name: 'declared features changed',
      oldObj: node(['featA']),
      newObj: node(['featA', 'featB']),
      want: Queue,
    },
    {
      name: 'declared features unchanged',
      oldObj: node(['featA']),
      newObj: node(['featA']),
      want: QueueSkip,
    },
    { name: 'wrong object', newObj: 'not-a-node', want: 'error' },
  ])('isSchedulableAfterNodeChange: $name', (row) => {
    const pl = new NodeDeclaredFeatures(true);
    check(row, (p, o, n) => pl.isSchedulableAfterNodeChange(p, o, n));
  });
});

describe('DynamicResources (upstream dynamicresources_test.go TestIsSchedulableAfterClaimChange)', () => {
  // As upstream's test, the claim of an add or update is in the cluster's objects before the hint runs.
  const claimName = 'my-pod-my-resource';
  const owner = { apiVersion: 'v1', kind: 'Pod', name: 'my-pod', uid: '1234', controller: true };
  const pendingClaim = {
    metadata: { name: claimName, namespace: 'default', uid: 'claim-uid', ownerReferences: [owner] },
    spec: { devices: { requests: [] } },
  };
  const allocation = {
    devices: {
      results: [{ request: 'req-1', driver: 'some-driver', pool: 'worker-1', device: 'instance-1' }],
    },
  };
  const allocatedClaim = { ...pendingClaim, status: { allocation } };
  const otherAllocatedClaim = {
    metadata: { name: 'not-my-claim', namespace: 'default', uid: 'other-uid' },
    spec: {},
    status: { allocation },
  };
  const podWith = (entry: object): Pod => {
    const p = makePod({ name: 'my-pod', uid: '1234' });
    (p.spec as { resourceClaims?: object[] }).resourceClaims = [{ name: 'my-resource', ...entry }];
    return p;
  };
  const podWithClaimName = podWith({ resourceClaimName: claimName });
  const podWithClaimTemplate = podWith({ resourceClaimTemplateName: claimName });
  const rows: (Row & { claims?: object[] })[] = [
    { name: 'skip-deletes', pod: podWithClaimTemplate, oldObj: pendingClaim, want: QueueSkip },
    {
      name: 'queue-on-delete-with-allocation',
      pod: podWithClaimTemplate,
      oldObj: allocatedClaim,
      want: Queue,
    },
    { name: 'backoff-wrong-new-object', pod: podWithClaimTemplate, newObj: 'not-a-claim', want: 'error' },
    {
      name: 'skip-wrong-claim',
      pod: podWithClaimTemplate,
      newObj: {
        ...allocatedClaim,
        metadata: { ...allocatedClaim.metadata, ownerReferences: [{ ...owner, uid: '1234123' }] },
      },
      want: QueueSkip,
    },
    {
      name: 'skip-unrelated-claim',
      pod: podWithClaimTemplate,
      claims: [allocatedClaim],
      newObj: {
        ...allocatedClaim,
        metadata: { ...allocatedClaim.metadata, name: `${claimName}-foo`, uid: 'claim-uid123' },
      },
      want: QueueSkip,
    },
    { name: 'queue-on-add', pod: podWithClaimName, newObj: pendingClaim, want: Queue },
    {
      name: 'backoff-wrong-old-object',
      pod: podWithClaimName,
      claims: [pendingClaim],
      oldObj: 'not-a-claim',
      newObj: pendingClaim,
      want: 'error',
    },
    {
      name: 'skip-adding-finalizer',
      pod: podWithClaimName,
      claims: [pendingClaim],
      oldObj: pendingClaim,
      newObj: { ...pendingClaim, metadata: { ...pendingClaim.metadata, finalizers: ['foo'] } },
      want: QueueSkip,
    },
    {
      name: 'queue-on-status-change',
      pod: podWithClaimName,
      claims: [pendingClaim],
      oldObj: pendingClaim,
      newObj: { ...pendingClaim, status: { allocation: {} } },
      want: Queue,
    },
    {
      name: 'claim-deallocate',
      pod: podWithClaimName,
      claims: [pendingClaim, otherAllocatedClaim],
      oldObj: otherAllocatedClaim,
      newObj: { ...otherAllocatedClaim, status: {} },
      want: Queue,
    },
  ];
  it.each(rows)('$name', (row) => {
    const objects = new ClusterObjects();
    for (const c of row.claims ?? []) objects.resourceClaims.set(c as never);
    if (row.newObj && typeof row.newObj === 'object') objects.resourceClaims.set(row.newObj as never);
    const pl = new DynamicResources(new FakeHandle({ objects }));
    check(row, (p, o, n) => pl.isSchedulableAfterClaimChange(p, o, n));
  });

  it('registers nothing without DynamicResourceAllocation, and TargetPod generated-claim updates with it', () => {
    const at = (v: string) =>
      new DynamicResources(new FakeHandle({ features: new FeatureSet(v) })).eventsToRegister();
    expect(at('1.33')).toEqual([]);
    const pod = makePod({ name: 'my-pod', uid: '1234' });
    const reg = at('1.34').find((r) => r.event.resource === 'TargetPod')!;
    expect(reg.event.actionType).toBe(ActionType.UpdatePodGeneratedResourceClaim);
    expect(reg.queueingHintFn!(pod, pod, pod)).toBe(Queue); // no claims: nothing left to resolve
    expect(reg.queueingHintFn!(podWithClaimTemplate, podWithClaimTemplate, podWithClaimTemplate)).toBe(
      QueueSkip,
    );
  });
});
