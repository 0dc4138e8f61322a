/**
 * Upstream's TestPodAntiAffinity table (descheduler v0.36.0,
 * pkg/framework/plugins/removepodsviolatinginterpodantiaffinity/pod_antiaffinity_test.go).
 */
import type { Node, Pod } from '@schedlab/k8s';
import * as t from '../../../testing/builders';

const node = (name: string, apply?: (n: Node) => void) => t.buildTestNode(name, 2000, 3000, 10, apply);
const setMainRegion = (n: Node) => void (n.metadata!.labels = { region: 'main-region' });
const node1 = () => node('n1', setMainRegion);
const pod = (name: string, nodeName: string, apply?: (p: Pod) => void) =>
  t.buildTestPod(name, 100, 0, nodeName, apply);
const onNode1 = (name: string, apply?: (p: Pod) => void) => pod(name, 'n1', apply);
const antiFooBar = (p: Pod) => t.setPodAntiAffinity(p, 'foo', 'bar');
const antiFoo1Bar1 = (p: Pod) => t.setPodAntiAffinity(p, 'foo1', 'bar1');
const labelsFooBar = (p: Pod) => void (p.metadata!.labels = { foo: 'bar' });
const labelsFoo1Bar1 = (p: Pod) => void (p.metadata!.labels = { foo1: 'bar1' });
const withAntiAffinity = (name: string) =>
  onNode1(name, (p) => {
    t.setNormalOwnerRef(p);
    antiFooBar(p);
  });
const p2 = () =>
  onNode1('p2', (p) => {
    t.setNormalOwnerRef(p);
    labelsFooBar(p);
  });
const nonEvictable = () =>
  onNode1('non-evict', (p) => {
    t.setPodPriority(p, 2_000_000_000);
    labelsFooBar(p);
  });
const fourPods = () => [withAntiAffinity('p1'), p2(), withAntiAffinity('p3'), withAntiAffinity('p4')];

export interface AntiAffinityRow {
  description: string;
  maxPodsToEvictPerNode?: number;
  maxNoOfPodsToEvictPerNamespace?: number;
  maxNoOfPodsToEvictTotal?: number;
  pods: Pod[];
  expectedEvictedPodCount: number;
  /** Upstream counts only; where the order makes the pods certain, they are named. */
  expectedEvicted?: string[];
  nodeFit?: boolean;
  nodes: Node[];
}

export const antiAffinityRows = (): AntiAffinityRow[] => [
  {
    description: 'Maximum pods to evict - 0',
    pods: fourPods(),
    nodes: [node1()],
    expectedEvictedPodCount: 3,
  },
  {
    description: 'Maximum pods to evict - 3',
    maxPodsToEvictPerNode: 3,
    pods: fourPods(),
    nodes: [node1()],
    expectedEvictedPodCount: 3,
  },
  {
    description: 'Maximum pods to evict (maxPodsToEvictPerNamespace=3) - 3',
    maxNoOfPodsToEvictPerNamespace: 3,
    pods: fourPods(),
    nodes: [node1()],
    expectedEvictedPodCount: 3,
  },
  {
    description: 'Maximum pods to evict (maxNoOfPodsToEvictTotal)',
    maxNoOfPodsToEvictPerNamespace: 3,
    maxNoOfPodsToEvictTotal: 1,
    pods: fourPods(),
    nodes: [node1()],
    expectedEvictedPodCount: 1,
  },
  {
    description: 'Evict only 1 pod after sorting',
    pods: [
      onNode1('p5', (p) => {
        t.setNormalOwnerRef(p);
        labelsFooBar(p);
        antiFoo1Bar1(p);
        t.setPodPriority(p, 100);
      }),
      onNode1('p6', (p) => {
        t.setNormalOwnerRef(p);
        labelsFooBar(p);
        antiFoo1Bar1(p);
        t.setPodPriority(p, 50);
      }),
      onNode1('p7', (p) => {
        t.setNormalOwnerRef(p);
        labelsFoo1Bar1(p);
        antiFooBar(p);
        t.setPodPriority(p, 0);
      }),
    ],
    nodes: [node1()],
    expectedEvictedPodCount: 1,
    // The lowest priority goes first, and with it the conflict.
    expectedEvicted: ['p7'],
  },
  {
    description: 'Evicts pod that conflicts with critical pod (but does not evict critical pod)',
    maxPodsToEvictPerNode: 1,
    pods: [withAntiAffinity('p1'), nonEvictable()],
    nodes: [node1()],
    expectedEvictedPodCount: 1,
    expectedEvicted: ['p1'],
  },
  {
    description:
      'Evicts pod that conflicts with critical pod (but does not evict critical pod) (repeated upstream)',
    maxPodsToEvictPerNode: 1,
    pods: [withAntiAffinity('p1'), nonEvictable()],
    nodes: [node1()],
    expectedEvictedPodCount: 1,
    expectedEvicted: ['p1'],
  },
  {
    description: "Won't evict pods because node selectors don't match available nodes",
    maxPodsToEvictPerNode: 1,
    pods: [onNode1('p8', (p) => void (p.spec!.nodeSelector = { datacenter: 'west' })), nonEvictable()],
    nodes: [node1(), node('n2', (n) => void (n.metadata!.labels = { datacenter: 'east' }))],
    expectedEvictedPodCount: 0,
    nodeFit: true,
  },
  {
    description: "Won't evict pods because only other node is not schedulable",
    maxPodsToEvictPerNode: 1,
    pods: [onNode1('p8', (p) => void (p.spec!.nodeSelector = { datacenter: 'west' })), nonEvictable()],
    nodes: [node1(), node('n3', (n) => void (n.spec = { unschedulable: true }))],
    expectedEvictedPodCount: 0,
    nodeFit: true,
  },
  {
    description: 'No pod to evicted since all pod terminating',
    pods: [
      onNode1('p9', (p) => {
        t.setNormalOwnerRef(p);
        antiFooBar(p);
        t.setTerminating(p);
      }),
      onNode1('p10', (p) => {
        t.setNormalOwnerRef(p);
        antiFooBar(p);
        t.setTerminating(p);
      }),
    ],
    nodes: [node1()],
    expectedEvictedPodCount: 0,
  },
  {
    description: "Won't evict pods because only other node doesn't have enough resources",
    maxPodsToEvictPerNode: 3,
    pods: fourPods(),
    nodes: [node1(), t.buildTestNode('n4', 2, 2, 1)],
    expectedEvictedPodCount: 0,
    nodeFit: true,
  },
  {
    description: 'Evict pod violating anti-affinity among different node (all pods have anti-affinity)',
    pods: [
      withAntiAffinity('p1'),
      pod('p11', 'n5', (p) => {
        t.setNormalOwnerRef(p);
        labelsFooBar(p);
      }),
    ],
    nodes: [node1(), t.buildTestNode('n5', 200, 3000, 10, setMainRegion)],
    expectedEvictedPodCount: 1,
    expectedEvicted: ['p1'],
    nodeFit: false,
  },
];
