/**
 * Cluster events against upstream v1.37.2 tables: types_test.go TestClusterEventMatching and
 * events_test.go TestNodeSchedulingPropertiesChange / TestExtractNodeFeaturesChange /
 * Test_podSchedulingPropertiesChange (the rows that do not need in-place resize status).
 */
import type { Node, Pod } from '@schedlab/k8s';
import { makePod } from '../../testing/builders';
import {
  ActionType,
  matchClusterEvents,
  nodeSchedulingPropertiesChange,
  podSchedulingPropertiesChange,
  type ClusterEvent,
  type EventResource,
} from '../events';

const A = ActionType;
const ev = (resource: EventResource, actionType: number): ClusterEvent => ({ resource, actionType });

describe('TestClusterEventMatching', () => {
  it.each([
    {
      name: 'wildcard event matches with all kinds of coming events',
      event: ev('*', A.All),
      coming: ev('Pod', A.UpdateNodeLabel),
      want: true,
    },
    {
      name: "event with resource = 'Pod' matching with coming events carries matching actionType",
      event: ev('Pod', A.UpdateNodeLabel | A.UpdateNodeTaint),
      coming: ev('Pod', A.UpdateNodeLabel),
      want: true,
    },
    {
      name: "event with resource = 'Pod' also matches event with 'UnscheduledPod' resource and matching actionType",
      event: ev('Pod', A.UpdateNodeLabel | A.UpdateNodeTaint),
      coming: ev('UnscheduledPod', A.UpdateNodeLabel),
      want: true,
    },
    {
      name: "event with resource = '*' matching with coming events carries same actionType",
      event: ev('*', A.UpdateNodeLabel),
      coming: ev('Pod', A.UpdateNodeLabel),
      want: true,
    },
    {
      name: "event with resource = '*' matching with coming events carries different actionType",
      event: ev('*', A.UpdateNodeLabel),
      coming: ev('Pod', A.UpdateNodeAllocatable),
      want: false,
    },
    {
      name: "event matching with coming events carries '*' resources",
      event: ev('Pod', A.UpdateNodeLabel),
      coming: ev('*', A.UpdateNodeLabel),
      want: false,
    },
    {
      name: "event with resource = '*' matching with coming events carrying a too broad actionType",
      event: ev('*', A.UpdateNodeLabel),
      coming: ev('Pod', A.Update),
      want: false,
    },
    {
      name: "event with resource = '*' matching with coming events carrying a more specific actionType",
      event: ev('*', A.Update),
      coming: ev('Pod', A.UpdateNodeLabel),
      want: true,
    },
    {
      name: "event with resource = 'Pod' also matches event with AssignedPod resource and same actionType",
      event: ev('Pod', A.UpdateNodeLabel),
      coming: ev('AssignedPod', A.UpdateNodeLabel),
      want: true,
    },
    {
      name: "event with resource = 'Pod' also matches event with 'TargetPod' resource and same actionType",
      event: ev('Pod', A.UpdateNodeTaint),
      coming: ev('TargetPod', A.UpdateNodeTaint),
      want: true,
    },
    {
      name: "event with resource 'AssignedPod' does not match event with 'UnscheduledPod' resource and same actionType",
      event: ev('AssignedPod', A.Add),
      coming: ev('UnscheduledPod', A.Add),
      want: false,
    },
    {
      name: "event with resource 'AssignedPod' does not match event with 'TargetPod' resource and same actionType",
      event: ev('AssignedPod', A.Update),
      coming: ev('TargetPod', A.Update),
      want: false,
    },
    {
      name: "event with resource 'TargetPod' does not match event with 'AssignedPod' resource and same actionType",
      event: ev('TargetPod', A.Update),
      coming: ev('AssignedPod', A.Update),
      want: false,
    },
    {
      name: "event with resource 'AssignedPod' does not match with broad 'Pod' resource and same actionType",
      event: ev('AssignedPod', A.Add),
      coming: ev('Pod', A.Add),
      want: false,
    },
    {
      name: "event with resource 'AssignedPod' does not match with 'WildCard' resource and same actionType",
      event: ev('AssignedPod', A.Add),
      coming: ev('*', A.Add),
      want: false,
    },
    {
      name: "event with resource 'UnscheduledPod' does not match with broad 'Pod' resource and same actionType",
      event: ev('UnscheduledPod', A.Add),
      coming: ev('Pod', A.Add),
      want: false,
    },
    {
      name: "event with resource 'UnscheduledPod' does not match with 'WildCard' resource and same actionType",
      event: ev('UnscheduledPod', A.Add),
      coming: ev('*', A.Add),
      want: false,
    },
    {
      name: "WildCard matches with a pod sub-type resource 'TargetPod' and any actionType",
      event: ev('*', A.All),
      coming: ev('TargetPod', A.Update),
      want: true,
    },
  ])('$name', ({ event, coming, want }) => {
    expect(matchClusterEvents(event, coming)).toBe(want);
  });
});

describe('TestNodeSchedulingPropertiesChange', () => {
  const node = (o: {
    unschedulable?: boolean;
    capacity?: Record<string, string>;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    taints?: NonNullable<Node['spec']>['taints'];
    conditions?: { type: string; status: string }[];
    declaredFeatures?: string[];
  }): Node =>
    ({
      kind: 'Node',
      metadata: { name: 'n', labels: o.labels, annotations: o.annotations },
      spec: { unschedulable: o.unschedulable, taints: o.taints },
      status: {
        ...(o.capacity
          ? { capacity: { pods: '32', ...o.capacity }, allocatable: { pods: '32', ...o.capacity } }
          : {}),
        conditions: o.conditions,
        ...(o.declaredFeatures ? { declaredFeatures: o.declaredFeatures } : {}),
      },
    }) as Node;
  const unsched = 'node.kubernetes.io/unschedulable';
  it.each([
    {
      name: 'no specific changed applied',
      newNode: node({ unschedulable: false }),
      oldNode: node({ unschedulable: false }),
      want: [],
    },
    {
      name: 'only node spec unavailable changed',
      newNode: node({ unschedulable: false }),
      oldNode: node({ unschedulable: true }),
      want: [A.UpdateNodeTaint],
    },
    {
      name: 'only node allocatable changed',
      newNode: node({ capacity: { cpu: '1000m', memory: '100m', 'example.com/foo': '1' } }),
      oldNode: node({ capacity: { cpu: '1000m', memory: '100m', 'example.com/foo': '2' } }),
      want: [A.UpdateNodeAllocatable],
    },
    {
      name: 'only node label changed',
      newNode: node({ labels: { foo: 'bar' } }),
      oldNode: node({ labels: { foo: 'fuz' } }),
      want: [A.UpdateNodeLabel],
    },
    {
      name: 'only node taint changed',
      newNode: node({ taints: [{ key: unsched, value: '', effect: 'NoSchedule' }] }),
      oldNode: node({ taints: [{ key: unsched, value: 'foo', effect: 'NoSchedule' }] }),
      want: [A.UpdateNodeTaint],
    },
    {
      name: 'only node annotation changed',
      newNode: node({ annotations: { foo: 'bar' } }),
      oldNode: node({ annotations: { foo: 'fuz' } }),
      want: [A.UpdateNodeAnnotation],
    },
    {
      name: 'only node condition changed',
      newNode: node({}),
      oldNode: node({ conditions: [{ type: 'Ready', status: 'True' }] }),
      want: [A.UpdateNodeCondition],
    },
    {
      name: 'both node label and node taint changed',
      newNode: node({ labels: { foo: 'bar' }, taints: [{ key: unsched, value: '', effect: 'NoSchedule' }] }),
      oldNode: node({ taints: [{ key: unsched, value: 'foo', effect: 'NoSchedule' }] }),
      want: [A.UpdateNodeLabel, A.UpdateNodeTaint],
    },
    // TestExtractNodeFeaturesChange
    {
      name: 'no features changed',
      newNode: node({ declaredFeatures: ['featA', 'featB'] }),
      oldNode: node({ declaredFeatures: ['featA', 'featB'] }),
      want: [],
    },
    {
      name: 'features added',
      newNode: node({ declaredFeatures: ['featA', 'featB'] }),
      oldNode: node({ declaredFeatures: ['featA'] }),
      want: [A.UpdateNodeDeclaredFeature],
    },
    {
      name: 'features different',
      newNode: node({ declaredFeatures: ['featC'] }),
      oldNode: node({ declaredFeatures: ['featA'] }),
      want: [A.UpdateNodeDeclaredFeature],
    },
    {
      name: 'old features empty, new has features',
      newNode: node({ declaredFeatures: ['featA'] }),
      oldNode: node({ declaredFeatures: [] }),
      want: [A.UpdateNodeDeclaredFeature],
    },
    { name: 'both nil', newNode: node({}), oldNode: node({}), want: [] },
  ])('$name', ({ newNode, oldNode, want }) => {
    expect(nodeSchedulingPropertiesChange(newNode, oldNode)).toEqual(
      want.map((actionType) => ({ resource: 'Node', actionType })),
    );
  });
});

describe('podSchedulingPropertiesChange', () => {
  const p = (o: {
    cpu?: string;
    labels?: Record<string, string>;
    gates?: string[];
    tolerations?: number;
    nodeName?: string;
  }): Pod => {
    const pod = makePod({
      name: 'p',
      labels: o.labels,
      requests: o.cpu ? [{ cpu: o.cpu }] : undefined,
      nodeName: o.nodeName,
    });
    if (o.gates) pod.spec!.schedulingGates = o.gates.map((name) => ({ name }));
    if (o.tolerations)
      pod.spec!.tolerations = Array.from({ length: o.tolerations }, (_, i) => ({
        key: `k${i}`,
        operator: 'Exists' as const,
      }));
    return pod;
  };
  it.each([
    // Test_podSchedulingPropertiesChange: a smaller request plus a label is a label change and a scale-down.
    {
      name: 'only label is updated',
      newPod: p({ cpu: '101m', labels: { foo: 'bar' } }),
      oldPod: p({ cpu: '101m' }),
      target: false,
      want: [ev('UnscheduledPod', A.UpdatePodLabel)],
    },
    {
      name: 'pod is scaled down',
      newPod: p({ cpu: '100m' }),
      oldPod: p({ cpu: '101m' }),
      target: false,
      want: [ev('UnscheduledPod', A.UpdatePodScaleDown)],
    },
    {
      name: 'pod is scaled up',
      newPod: p({ cpu: '101m' }),
      oldPod: p({ cpu: '100m' }),
      target: false,
      want: [ev('UnscheduledPod', A.UpdatePodScaleUp)],
    },
    {
      name: 'both pod label and resource request are updated',
      newPod: p({ cpu: '100m', labels: { foo: 'bar' } }),
      oldPod: p({ cpu: '101m' }),
      target: false,
      want: [ev('UnscheduledPod', A.UpdatePodLabel), ev('UnscheduledPod', A.UpdatePodScaleDown)],
    },
    {
      name: 'untracked properties of pod is updated',
      newPod: p({ cpu: '101m' }),
      oldPod: p({ cpu: '101m' }),
      target: false,
      want: [ev('UnscheduledPod', A.Update)],
    },
    {
      name: 'scheduling gates eliminated',
      newPod: p({}),
      oldPod: p({ gates: ['g'] }),
      target: true,
      want: [ev('TargetPod', A.UpdatePodSchedulingGatesEliminated)],
    },
    {
      name: 'one of two scheduling gates removed',
      newPod: p({ gates: ['a'] }),
      oldPod: p({ gates: ['a', 'b'] }),
      target: true,
      want: [ev('TargetPod', A.Update)],
    },
    {
      name: 'toleration added',
      newPod: p({ tolerations: 2 }),
      oldPod: p({ tolerations: 1 }),
      target: true,
      want: [ev('TargetPod', A.UpdatePodToleration)],
    },
    {
      name: 'assigned pod relabelled',
      newPod: p({ nodeName: 'n', labels: { a: 'b' } }),
      oldPod: p({ nodeName: 'n' }),
      target: false,
      want: [ev('AssignedPod', A.UpdatePodLabel)],
    },
  ])('$name', ({ newPod, oldPod, target, want }) => {
    expect(podSchedulingPropertiesChange(newPod, oldPod, target)).toEqual(want);
  });
});
