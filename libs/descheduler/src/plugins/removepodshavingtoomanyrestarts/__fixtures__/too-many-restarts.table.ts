/**
 * Upstream's TestRemovePodsHavingTooManyRestarts table (descheduler v0.36.0,
 * pkg/framework/plugins/removepodshavingtoomanyrestarts/toomanyrestarts_test.go), row for row.
 */
import type { Node, Pod } from '@schedlab/k8s';
import * as t from '../../../testing/builders';

const node = (name: string, apply?: (n: Node) => void) => t.buildTestNode(name, 2000, 3000, 10, apply);

/** pod-i restarts 25*i times: 5*i in its init container, 10*i in each of its two containers. */
function podWithRestarts(name: string, base: number, apply?: (p: Pod) => void): Pod {
  return t.buildTestPod(name, 100, 0, 'node1', (p) => {
    t.setNormalOwnerRef(p);
    t.writable(p).status = {
      initContainerStatuses: [{ name: 'init', image: '', imageID: '', ready: false, restartCount: 5 * base }],
      containerStatuses: [
        { name: 'a', image: '', imageID: '', ready: true, restartCount: 10 * base },
        { name: 'b', image: '', imageID: '', ready: true, restartCount: 10 * base },
      ],
    };
    apply?.(p);
  });
}

/** Upstream's initPods: pod-0…pod-9 on node1 (6 a DaemonSet pod, 7 with local storage, 8 a mirror pod), two CPU consumers. */
export function initPods(apply?: (p: Pod) => void): Pod[] {
  const pods: Pod[] = [];
  for (let i = 0; i <= 9; i++) {
    const extra =
      i === 6
        ? (p: Pod) => {
            t.setDSOwnerRef(p);
            apply?.(p);
          }
        : i === 7
          ? (p: Pod) => {
              t.setNormalOwnerRef(p);
              t.setHostPathEmptyDirVolumeSource(p);
              apply?.(p);
            }
          : i === 8
            ? (p: Pod) => {
                p.metadata!.annotations = t.mirrorPodAnnotations();
                apply?.(p);
              }
            : apply;
    pods.push(podWithRestarts(`pod-${i}`, i, extra));
  }
  pods.push(
    t.buildTestPod('CPU-consumer-1', 150, 100, 'node4', t.setNormalOwnerRef),
    t.buildTestPod('CPU-consumer-2', 150, 100, 'node5', t.setNormalOwnerRef),
  );
  return pods;
}

export interface RestartsRow {
  description: string;
  args: { podRestartThreshold: number; includingInitContainers?: boolean; states?: string[] };
  pods: Pod[];
  nodes: Node[];
  expectedEvictedPodCount: number;
  maxPodsToEvictPerNode?: number;
  maxNoOfPodsToEvictPerNamespace?: number;
  nodeFit?: boolean;
}

const args = (podRestartThreshold: number, includingInitContainers: boolean) => ({
  podRestartThreshold,
  includingInitContainers,
});
const crashLooping = (p: Pod) => {
  const first = p.status?.containerStatuses?.[0];
  if (first) first.state = { waiting: { reason: 'CrashLoopBackOff' } };
};
const initCrashLooping = (p: Pod) =>
  void (p.status!.initContainerStatuses = [
    {
      name: 'init',
      image: '',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
    },
  ]);

export const restartsRows = (): RestartsRow[] => [
  {
    description: 'All pods have total restarts under threshold, no pod evictions',
    args: args(10000, true),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 0,
  },
  {
    description: 'Some pods have total restarts bigger than threshold',
    args: args(1, true),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 6,
  },
  {
    description:
      'Nine pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions',
    args: args(25, true),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 6,
  },
  {
    description:
      'Nine pods have total restarts equals threshold(includingInitContainers=false), 5 pod evictions',
    args: args(25, false),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 5,
  },
  {
    description:
      'All pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions',
    args: args(20, true),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 6,
  },
  {
    description:
      'Nine pods have total restarts equals threshold(includingInitContainers=false), 6 pod evictions',
    args: args(20, false),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 6,
  },
  {
    description:
      'Five pods have total restarts bigger than threshold(includingInitContainers=true), but only 1 pod eviction',
    args: args(5 * 25 + 1, true),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 1,
  },
  {
    description:
      'Five pods have total restarts bigger than threshold(includingInitContainers=false), but only 1 pod eviction',
    args: args(5 * 20 + 1, false),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 1,
    nodeFit: false,
  },
  {
    description: 'All pods have total restarts equals threshold(maxPodsToEvictPerNode=3), 3 pod evictions',
    args: args(1, true),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 3,
    maxPodsToEvictPerNode: 3,
  },
  {
    description:
      'All pods have total restarts equals threshold(maxNoOfPodsToEvictPerNamespace=3), 3 pod evictions',
    args: args(1, true),
    pods: initPods(),
    nodes: [node('node1')],
    expectedEvictedPodCount: 3,
    maxNoOfPodsToEvictPerNamespace: 3,
  },
  {
    description:
      'All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is tainted, 0 pod evictions',
    args: args(1, true),
    pods: initPods(),
    nodes: [
      node('node1'),
      node('node2', (n) => void (n.spec!.taints = [{ key: 'hardware', value: 'gpu', effect: 'NoSchedule' }])),
    ],
    expectedEvictedPodCount: 0,
    maxPodsToEvictPerNode: 3,
    nodeFit: true,
  },
  {
    description:
      'All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is not schedulable, 0 pod evictions',
    args: args(1, true),
    pods: initPods(),
    nodes: [node('node1'), node('node3', (n) => void (n.spec = { unschedulable: true }))],
    expectedEvictedPodCount: 0,
    maxPodsToEvictPerNode: 3,
    nodeFit: true,
  },
  {
    description:
      'All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node does not have enough CPU, 0 pod evictions',
    args: args(1, true),
    pods: initPods(),
    nodes: [node('node1'), t.buildTestNode('node4', 200, 3000, 10)],
    expectedEvictedPodCount: 0,
    maxPodsToEvictPerNode: 3,
    nodeFit: true,
  },
  {
    description:
      'All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node has enough CPU, 3 pod evictions',
    args: args(1, true),
    pods: initPods(),
    nodes: [node('node1'), node('node5')],
    expectedEvictedPodCount: 3,
    maxPodsToEvictPerNode: 3,
    nodeFit: true,
  },
  {
    description: 'pods are in CrashLoopBackOff with states=CrashLoopBackOff, 3 pod evictions',
    args: { podRestartThreshold: 1, states: ['CrashLoopBackOff'] },
    pods: initPods(crashLooping),
    nodes: [node('node1'), node('node5')],
    expectedEvictedPodCount: 3,
    maxPodsToEvictPerNode: 3,
    nodeFit: true,
  },
  {
    description: 'pods without CrashLoopBackOff with states=CrashLoopBackOff, 0 pod evictions',
    args: { podRestartThreshold: 1, states: ['CrashLoopBackOff'] },
    pods: initPods(),
    nodes: [node('node1'), node('node5')],
    expectedEvictedPodCount: 0,
    maxPodsToEvictPerNode: 3,
    nodeFit: true,
  },
  {
    description: 'pods running with state=Running, 3 pod evictions',
    args: { podRestartThreshold: 1, states: ['Running'] },
    pods: initPods((p) => void (p.status!.phase = 'Running')),
    nodes: [node('node1')],
    expectedEvictedPodCount: 3,
    maxPodsToEvictPerNode: 3,
  },
  {
    description: 'pods pending with state=Running, 0 pod evictions',
    args: { podRestartThreshold: 1, states: ['Running'] },
    pods: initPods((p) => void (p.status!.phase = 'Pending')),
    nodes: [node('node1')],
    expectedEvictedPodCount: 0,
    maxPodsToEvictPerNode: 3,
  },
  {
    description:
      'pods pending with initContainer with states=CrashLoopBackOff threshold(includingInitContainers=true), 3 pod evictions',
    args: { podRestartThreshold: 1, states: ['CrashLoopBackOff'], includingInitContainers: true },
    pods: initPods(initCrashLooping),
    nodes: [node('node1')],
    expectedEvictedPodCount: 3,
    maxPodsToEvictPerNode: 3,
  },
  {
    description:
      'pods pending with initContainer with states=CrashLoopBackOff threshold(includingInitContainers=false), 0 pod evictions',
    args: { podRestartThreshold: 1, states: ['CrashLoopBackOff'], includingInitContainers: false },
    pods: initPods(initCrashLooping),
    nodes: [node('node1')],
    expectedEvictedPodCount: 0,
    maxPodsToEvictPerNode: 3,
  },
];
