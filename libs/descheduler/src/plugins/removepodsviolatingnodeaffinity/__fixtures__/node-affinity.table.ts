/**
 * Upstream's TestRemovePodsViolatingNodeAffinity table (descheduler v0.36.0,
 * pkg/framework/plugins/removepodsviolatingnodeaffinity/node_affinity_test.go), row for row.
 * Every row puts upstream's three pods (podWithNodeAffinity, pod1, pod2) on one node.
 */
import type { Node, Pod } from '@schedlab/k8s';
import * as t from '../../../testing/builders';

const LABEL_KEY = 'kubernetes.io/desiredNode';
const LABEL_VALUE = 'yes';
const REQUIRED = 'requiredDuringSchedulingIgnoredDuringExecution';
const PREFERRED = 'preferredDuringSchedulingIgnoredDuringExecution';
const INVALID = 'requiredDuringSchedulingRequiredDuringExecution';

const node = (name: string, apply?: (n: Node) => void) => t.buildTestNode(name, 2000, 3000, 10, apply);
const withDesiredLabel = (n: Node) => void (n.metadata!.labels![LABEL_KEY] = LABEL_VALUE);
export const nodeWithLabels = () => node('nodeWithLabels', withDesiredLabel);
export const nodeWithoutLabels = () => node('nodeWithoutLabels');
export const unschedulableNodeWithLabels = () =>
  node('unschedulableNodeWithLabels', (n) => {
    withDesiredLabel(n);
    n.spec!.unschedulable = true;
  });

const term = { matchExpressions: [{ key: LABEL_KEY, operator: 'In', values: [LABEL_VALUE] }] };

/** Upstream's addPodsToNode: the affinity pod first, then two plain pods, all owned and maybe terminating. */
export function addPodsToNode(nodeName: string, terminating: boolean, affinityType: string): Pod[] {
  const finish = (p: Pod) => {
    p.metadata!.ownerReferences = t.normalOwnerRefs();
    if (terminating) t.setTerminating(p);
  };
  const withAffinity = t.buildTestPod('podWithNodeAffinity', 100, 0, nodeName, (p) => {
    p.spec!.affinity = { nodeAffinity: {} };
    if (affinityType === REQUIRED)
      p.spec!.affinity.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution = {
        nodeSelectorTerms: [term],
      };
    else if (affinityType === PREFERRED)
      p.spec!.affinity.nodeAffinity!.preferredDuringSchedulingIgnoredDuringExecution = [
        { weight: 10, preference: term },
      ];
    finish(p);
  });
  return [
    withAffinity,
    t.buildTestPod('pod1', 100, 0, nodeName, finish),
    t.buildTestPod('pod2', 100, 0, nodeName, finish),
  ];
}

export interface NodeAffinityRow {
  description: string;
  nodeAffinityType: string[];
  nodes: Node[];
  pods: Pod[];
  expectedEvictedPodCount: number;
  maxPodsToEvictPerNode?: number;
  maxNoOfPodsToEvictPerNamespace?: number;
  maxNoOfPodsToEvictTotal?: number;
  nodefit?: boolean;
}

const onUnlabelled = (type: string, terminating = false) =>
  addPodsToNode('nodeWithoutLabels', terminating, type);
const both = () => [nodeWithoutLabels(), nodeWithLabels()];
const what = 'Pod is scheduled on node without matching labels, another schedulable node available';

export const nodeAffinityRows = (): NodeAffinityRow[] => [
  {
    description: 'Invalid Affinity type, should not evict any pods',
    nodeAffinityType: [INVALID],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(INVALID),
    nodes: both(),
  },
  {
    description: 'Pod is correctly scheduled on node, no eviction expected [required affinity]',
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: addPodsToNode('nodeWithLabels', false, REQUIRED),
    nodes: [nodeWithLabels()],
  },
  {
    description: 'Pod is correctly scheduled on node, no eviction expected [preferred affinity]',
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 0,
    pods: addPodsToNode('nodeWithLabels', false, PREFERRED),
    nodes: [nodeWithLabels()],
  },
  {
    description: `${what}, should be evicted`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 1,
    pods: onUnlabelled(REQUIRED),
    nodes: both(),
  },
  {
    description: `${what} with better fit, should be evicted`,
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 1,
    pods: onUnlabelled(PREFERRED),
    nodes: both(),
  },
  {
    description: `${what}, maxPodsToEvictPerNode set to 1, should be evicted [required affinity]`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 1,
    pods: onUnlabelled(REQUIRED),
    nodes: both(),
    maxPodsToEvictPerNode: 1,
  },
  {
    description: `${what}, maxPodsToEvictPerNode set to 1, should be evicted [preferred affinity]`,
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 1,
    pods: onUnlabelled(PREFERRED),
    nodes: both(),
    maxPodsToEvictPerNode: 1,
  },
  {
    description: `${what}, maxPodsToEvictPerNode set to 0, should be not evicted [required affinity]`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(REQUIRED),
    nodes: both(),
    maxPodsToEvictPerNode: 0,
  },
  {
    description: `${what}, maxPodsToEvictPerNode set to 0, should be not evicted [preferred affinity]`,
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(PREFERRED),
    nodes: both(),
    maxPodsToEvictPerNode: 0,
  },
  {
    description: `${what}, maxPodsToEvictPerNode set to 1, no pod evicted since pod terminating [required affinity]`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(REQUIRED, true),
    nodes: both(),
    maxPodsToEvictPerNode: 1,
  },
  {
    description: `${what}, maxPodsToEvictPerNode set to 1, no pod evicted since pod terminating [preferred affinity]`,
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(PREFERRED, true),
    nodes: both(),
    maxPodsToEvictPerNode: 1,
  },
  {
    description: `${what}, maxNoOfPodsToEvictPerNamespace set to 1, should be evicted [required affinity]`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 1,
    pods: onUnlabelled(REQUIRED),
    nodes: both(),
    maxNoOfPodsToEvictPerNamespace: 1,
  },
  {
    description: `${what}, maxNoOfPodsToEvictTotal set to 0, should not be evicted [required affinity]`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(REQUIRED),
    nodes: both(),
    maxNoOfPodsToEvictPerNamespace: 1,
    maxNoOfPodsToEvictTotal: 0,
  },
  {
    description: `${what}, maxNoOfPodsToEvictPerNamespace set to 1, should be evicted [preferred affinity]`,
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 1,
    pods: onUnlabelled(PREFERRED),
    nodes: both(),
    maxNoOfPodsToEvictPerNamespace: 1,
  },
  {
    description: `${what}, maxNoOfPodsToEvictPerNamespace set to 0, should not be evicted [required affinity]`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(REQUIRED),
    nodes: both(),
    maxNoOfPodsToEvictPerNamespace: 0,
  },
  {
    description: `${what}, maxNoOfPodsToEvictPerNamespace set to 0, should not be evicted [preferred affinity]`,
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(PREFERRED),
    nodes: both(),
    maxNoOfPodsToEvictPerNamespace: 0,
  },
  {
    description: `${what}, maxNoOfPodsToEvictPerNamespace set to 1, no pod evicted since pod terminting [required affinity]`,
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(REQUIRED, true),
    nodes: both(),
    maxNoOfPodsToEvictPerNamespace: 1,
  },
  {
    description: `${what}, maxNoOfPodsToEvictPerNamespace set to 1, no pod evicted since pod terminting [preferred affinity]`,
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(PREFERRED, true),
    nodes: both(),
    maxNoOfPodsToEvictPerNamespace: 1,
  },
  {
    description:
      'Pod is scheduled on node without matching labels, but no node where pod fits is available, should not evict [required affinity]',
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(REQUIRED),
    nodes: [nodeWithoutLabels(), unschedulableNodeWithLabels()],
    nodefit: true,
  },
  {
    description:
      'Pod is scheduled on node without matching labels, but no node where pod fits is available, should not evict [preferred affinity]',
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(PREFERRED),
    nodes: [nodeWithoutLabels(), unschedulableNodeWithLabels()],
    nodefit: true,
  },
  {
    description:
      'Pod is scheduled on node without matching labels, and unschedulable node where pod could fit is available, should not evict [required affinity]',
    nodeAffinityType: [REQUIRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(REQUIRED),
    nodes: [nodeWithLabels(), unschedulableNodeWithLabels()],
    maxPodsToEvictPerNode: 1,
    nodefit: true,
  },
  {
    description:
      'Pod is scheduled on node without matching labels, and unschedulable node where pod could fit is available, should not evict [preferred affinity]',
    nodeAffinityType: [PREFERRED],
    expectedEvictedPodCount: 0,
    pods: onUnlabelled(PREFERRED),
    nodes: [nodeWithLabels(), unschedulableNodeWithLabels()],
    maxPodsToEvictPerNode: 1,
    nodefit: true,
  },
];
