/**
 * Upstream's TestDeletePodsViolatingNodeTaints table (descheduler v0.36.0,
 * pkg/framework/plugins/removepodsviolatingnodetaints/node_taint_test.go), row for row, as data.
 */
import type { Node, Pod, Taint, Toleration } from '@schedlab/k8s';
import * as t from '../../../testing/builders';

const node = (name: string, apply?: (n: Node) => void) => t.buildTestNode(name, 2000, 3000, 10, apply);
const pod = (name: string, nodeName: string, apply?: (p: Pod) => void) =>
  t.buildTestPod(name, 100, 0, nodeName, apply);
const ownedPod = (name: string, nodeName: string, apply?: (p: Pod) => void) =>
  pod(name, nodeName, (p) => {
    t.setNormalOwnerRef(p);
    apply?.(p);
  });

const taint = (index: number, effect: string): Taint => ({
  key: `testTaint${index}`,
  value: `test${index}`,
  effect,
});
// Upstream's helpers ignore their key/value arguments: every taint is testTaint<i>=test<i>.
const withTestTaint1 = (n: Node) => void (n.spec!.taints = [taint(1, 'NoSchedule')]);
const withTestingTaint1 = withTestTaint1;
const withBothTaints1 = (n: Node) => void (n.spec!.taints = [taint(1, 'NoSchedule'), taint(1, 'NoSchedule')]);
const withDatacenterEastLabel = (n: Node) => void (n.metadata!.labels = { datacenter: 'east' });
const withUnschedulable = (n: Node) => void (n.spec!.unschedulable = true);
const withPreferNoScheduleTestTaint1 = (n: Node) => void (n.spec!.taints = [taint(1, 'PreferNoSchedule')]);

const addToleration = (p: Pod, key: string, value: string, index: number, effect: string) =>
  void (p.spec!.tolerations = [{ key: `${key}${index}`, value: `${value}${index}`, effect }]);
const withTestTaintToleration1 = (p: Pod) => addToleration(p, 'testTaint', 'test', 1, 'NoSchedule');
const withTestTaintXToleration1 = (p: Pod) => addToleration(p, 'testTaintX', 'testX', 1, 'NoSchedule');
const withLocalStorageVolume = t.setHostPathEmptyDirVolumeSource;
const withKubeSystemCriticalPod = (p: Pod) => {
  p.metadata!.namespace = 'kube-system';
  t.setPodPriority(p, 2_000_000_000);
};

export interface NodeTaintRow {
  description: string;
  nodes: Node[];
  pods: Pod[];
  evictLocalStoragePods?: boolean;
  evictSystemCriticalPods?: boolean;
  maxPodsToEvictPerNode?: number;
  maxNoOfPodsToEvictPerNamespace?: number;
  maxNoOfPodsToEvictTotal?: number;
  expectedEvictedPodCount: number;
  nodeFit?: boolean;
  includePreferNoSchedule?: boolean;
  excludedTaints?: string[];
  includedTaints?: string[];
}

export const nodeTaintRows = (): NodeTaintRow[] => [
  {
    description: 'Pods not tolerating node taint should be evicted',
    pods: [
      ownedPod('p1', 'n1', withTestTaintToleration1),
      ownedPod('p2', 'n1'),
      ownedPod('p3', 'n1', withTestTaintToleration1),
    ],
    nodes: [node('n1', withTestTaint1)],
    expectedEvictedPodCount: 1,
  },
  {
    description: 'Pods with tolerations but not tolerating node taint should be evicted',
    pods: [
      ownedPod('p1', 'n1', withTestTaintToleration1),
      ownedPod('p3', 'n1', withTestTaintToleration1),
      ownedPod('p4', 'n1', withTestTaintXToleration1),
    ],
    nodes: [node('n1', withTestTaint1)],
    expectedEvictedPodCount: 1,
  },
  {
    description: 'Only <maxNoOfPodsToEvictTotal> number of Pods not tolerating node taint should be evicted',
    pods: [ownedPod('p1', 'n1', withTestTaintToleration1), ownedPod('p5', 'n1'), ownedPod('p6', 'n1')],
    nodes: [node('n1', withTestTaint1)],
    maxPodsToEvictPerNode: 2,
    maxNoOfPodsToEvictTotal: 1,
    expectedEvictedPodCount: 1,
  },
  {
    description: 'Only <maxPodsToEvictPerNode> number of Pods not tolerating node taint should be evicted',
    pods: [ownedPod('p1', 'n1', withTestTaintToleration1), ownedPod('p5', 'n1'), ownedPod('p6', 'n1')],
    nodes: [node('n1', withTestTaint1)],
    maxPodsToEvictPerNode: 1,
    expectedEvictedPodCount: 1,
  },
  {
    description:
      'Only <maxNoOfPodsToEvictPerNamespace> number of Pods not tolerating node taint should be evicted',
    pods: [ownedPod('p1', 'n1', withTestTaintToleration1), ownedPod('p5', 'n1'), ownedPod('p6', 'n1')],
    nodes: [node('n1', withTestTaint1)],
    maxNoOfPodsToEvictPerNamespace: 1,
    expectedEvictedPodCount: 1,
  },
  {
    description:
      'Only <maxNoOfPodsToEvictPerNamespace> number of Pods not tolerating node taint should be evicted (repeated upstream)',
    pods: [ownedPod('p1', 'n1', withTestTaintToleration1), ownedPod('p5', 'n1'), ownedPod('p6', 'n1')],
    nodes: [node('n1', withTestTaint1)],
    maxNoOfPodsToEvictPerNamespace: 1,
    expectedEvictedPodCount: 1,
  },
  {
    description: 'Critical pods not tolerating node taint should not be evicted',
    pods: [
      ownedPod('p7', 'n2', withKubeSystemCriticalPod),
      pod('p8', 'n2', t.setDSOwnerRef),
      ownedPod('p9', 'n2', withLocalStorageVolume),
      ownedPod('p10', 'n2', t.setMirrorPodAnnotation),
    ],
    nodes: [node('n2', withTestingTaint1)],
    expectedEvictedPodCount: 0,
  },
  {
    description: 'Critical pods except storage pods not tolerating node taint should not be evicted',
    pods: [
      ownedPod('p7', 'n2', withKubeSystemCriticalPod),
      pod('p8', 'n2', t.setDSOwnerRef),
      ownedPod('p9', 'n2', withLocalStorageVolume),
      ownedPod('p10', 'n2', t.setMirrorPodAnnotation),
    ],
    nodes: [node('n2', withTestingTaint1)],
    evictLocalStoragePods: true,
    expectedEvictedPodCount: 1,
  },
  {
    description:
      'Critical and non critical pods, only non critical pods not tolerating node taint should be evicted',
    pods: [
      ownedPod('p7', 'n2', withKubeSystemCriticalPod),
      pod('p8', 'n2', t.setDSOwnerRef),
      ownedPod('p10', 'n2', t.setMirrorPodAnnotation),
      ownedPod('p11', 'n2'),
    ],
    nodes: [node('n2', withTestingTaint1)],
    expectedEvictedPodCount: 1,
  },
  {
    description:
      'Critical and non critical pods, pods not tolerating node taint should be evicted even if they are critical',
    pods: [
      ownedPod('p2', 'n1'),
      ownedPod('p7', 'n2', withKubeSystemCriticalPod),
      ownedPod('p9', 'n2', withLocalStorageVolume),
      ownedPod('p10', 'n2', t.setMirrorPodAnnotation),
    ],
    nodes: [node('n1', withTestTaint1), node('n2', withTestingTaint1)],
    evictSystemCriticalPods: true,
    expectedEvictedPodCount: 2,
  },
  {
    description:
      "Pod p2 doesn't tolerate taint on it's node, but also doesn't tolerate taints on other nodes",
    pods: [
      ownedPod('p1', 'n1', withTestTaintToleration1),
      ownedPod('p2', 'n1'),
      ownedPod('p3', 'n1', withTestTaintToleration1),
    ],
    nodes: [node('n1', withTestTaint1), node('n2', withTestingTaint1)],
    expectedEvictedPodCount: 0,
    nodeFit: true,
  },
  {
    description: "Pod p12 doesn't tolerate taint on it's node, but other nodes don't match it's selector",
    pods: [
      ownedPod('p1', 'n1', withTestTaintToleration1),
      ownedPod('p3', 'n1', withTestTaintToleration1),
      ownedPod('p11', 'n2', (p) => void (p.spec!.nodeSelector = { datacenter: 'west' })),
    ],
    nodes: [node('n1', withTestTaint1), node('n3', withDatacenterEastLabel)],
    expectedEvictedPodCount: 0,
    nodeFit: true,
  },
  {
    description: "Pod p2 doesn't tolerate taint on it's node, but other nodes are unschedulable",
    pods: [
      ownedPod('p1', 'n1', withTestTaintToleration1),
      ownedPod('p2', 'n1'),
      ownedPod('p3', 'n1', withTestTaintToleration1),
    ],
    nodes: [node('n1', withTestTaint1), node('n4', withUnschedulable)],
    expectedEvictedPodCount: 0,
    nodeFit: true,
  },
  {
    description: 'Pods not tolerating PreferNoSchedule node taint should not be evicted when not enabled',
    pods: [ownedPod('p13', 'n5', (p) => addToleration(p, 'testTaint', 'test', 0, 'PreferNoSchedule'))],
    nodes: [node('n5', withPreferNoScheduleTestTaint1)],
    expectedEvictedPodCount: 0,
  },
  {
    description: 'Pods not tolerating PreferNoSchedule node taint should be evicted when enabled',
    pods: [ownedPod('p13', 'n5', (p) => addToleration(p, 'testTaint', 'test', 0, 'PreferNoSchedule'))],
    nodes: [node('n5', withPreferNoScheduleTestTaint1)],
    includePreferNoSchedule: true,
    expectedEvictedPodCount: 1,
  },
  {
    description: 'Pods not tolerating excluded node taints (by key) should not be evicted',
    pods: [ownedPod('p2', 'n1')],
    nodes: [node('n1', withTestTaint1)],
    excludedTaints: ['excludedTaint1', 'testTaint1'],
    expectedEvictedPodCount: 0,
  },
  {
    description: 'Pods not tolerating excluded node taints (by key and value) should not be evicted',
    pods: [ownedPod('p2', 'n1')],
    nodes: [node('n1', withTestTaint1)],
    excludedTaints: ['testTaint1=test1'],
    expectedEvictedPodCount: 0,
  },
  {
    description: "The excluded taint matches the key of node1's taint, but does not match the value",
    pods: [ownedPod('p2', 'n1')],
    nodes: [node('n1', withTestTaint1)],
    excludedTaints: ['testTaint1=test2'],
    expectedEvictedPodCount: 1,
  },
  {
    description:
      "Critical and non critical pods, pods not tolerating node taint can't be evicted because the only available node does not have enough resources.",
    pods: [
      ownedPod('p2', 'n1'),
      ownedPod('p7', 'n2', withKubeSystemCriticalPod),
      ownedPod('p9', 'n2', withLocalStorageVolume),
      ownedPod('p10', 'n2', t.setMirrorPodAnnotation),
    ],
    nodes: [node('n1', withTestTaint1), t.buildTestNode('n6', 1, 1, 1, withPreferNoScheduleTestTaint1)],
    evictSystemCriticalPods: true,
    expectedEvictedPodCount: 0,
    nodeFit: true,
  },
  {
    description: 'Pods tolerating included taints should not get evicted even with other taints present',
    pods: [ownedPod('p1', 'n1', withTestTaintToleration1)],
    nodes: [node('n7', withBothTaints1)],
    includedTaints: ['testTaint1=test1'],
    expectedEvictedPodCount: 0,
  },
  {
    description: 'Pods not tolerating not included taints should not get evicted',
    pods: [
      ownedPod('p1', 'n1', withTestTaintToleration1),
      ownedPod('p2', 'n1'),
      ownedPod('p4', 'n1', withTestTaintXToleration1),
    ],
    nodes: [node('n1', withTestTaint1)],
    includedTaints: ['testTaint2=test2'],
    expectedEvictedPodCount: 0,
  },
  {
    description:
      'Pods tolerating includedTaint should not get evicted. Pods not tolerating includedTaints should get evicted',
    pods: [
      ownedPod('p1', 'n1', withTestTaintToleration1),
      ownedPod('p2', 'n1'),
      ownedPod('p3', 'n1', withTestTaintToleration1),
    ],
    nodes: [node('n1', withTestTaint1)],
    includedTaints: ['testTaint1=test1'],
    expectedEvictedPodCount: 1,
  },
  {
    description: 'Pods not tolerating all taints are evicted when includedTaints is empty',
    pods: [
      ownedPod('p14', 'n7', withTestTaintToleration1),
      ownedPod('p15', 'n7', (p) => {
        withTestTaintToleration1(p);
        addToleration(p, 'testingTaint', 'testing', 1, 'NoSchedule');
      }),
    ],
    nodes: [node('n7', withBothTaints1)],
    expectedEvictedPodCount: 1,
  },
];

/** Upstream's TestToleratesTaint rows (the toleration matching the plugin relies on). */
export const toleratesTaintRows: {
  description: string;
  toleration: Toleration;
  taint: Taint;
  expectTolerated: boolean;
}[] = [
  {
    description:
      'toleration and taint have the same key and effect, and operator is Exists, and taint has no value, expect tolerated',
    toleration: { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
    taint: { key: 'foo', effect: 'NoSchedule' },
    expectTolerated: true,
  },
  {
    description:
      'toleration and taint have the same key and effect, and operator is Exists, and taint has some value, expect tolerated',
    toleration: { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    expectTolerated: true,
  },
  {
    description:
      'toleration and taint have the same effect, toleration has empty key and operator is Exists, means match all taints, expect tolerated',
    toleration: { key: '', operator: 'Exists', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    expectTolerated: true,
  },
  {
    description:
      'toleration and taint have the same key, effect and value, and operator is Equal, expect tolerated',
    toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    expectTolerated: true,
  },
  {
    description:
      'toleration and taint have the same key and effect, but different values, and operator is Equal, expect not tolerated',
    toleration: { key: 'foo', operator: 'Equal', value: 'value1', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'value2', effect: 'NoSchedule' },
    expectTolerated: false,
  },
  {
    description:
      'toleration and taint have the same key and value, but different effects, and operator is Equal, expect not tolerated',
    toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoExecute' },
    expectTolerated: false,
  },
];
