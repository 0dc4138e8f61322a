/**
 * Upstream's PodLifeTime tables (descheduler v0.36.0, pkg/framework/plugins/podlifetime/
 * pod_lifetime_test.go: TestPodLifeTime and its _EvictorConfiguration, _GenericFiltering,
 * _EvictionLimits, _ContainerWaitingReasons, _PodStatusReasons, _AgeThreshold, _PodPhaseStates,
 * then TestStatesWithTerminatedReasons, TestConditionFiltering, TestTransitionTimeFiltering,
 * TestOwnerKindsFiltering, TestStatesWithEphemeralContainers, TestExitCodesFiltering,
 * TestCombinedFilters and TestValidation) as data. Times are relative to the snapshot's clock NOW.
 */
import type { Node, OwnerReference, Pod } from '@schedlab/k8s';
import * as t from '../../../testing/builders';

export const NOW = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const OLDER = '2009-11-10T23:00:00Z';
const NEWER = iso(NOW);
const OLD_TRANSITION = iso(NOW - 2 * 3600_000);
const NEW_TRANSITION = iso(NOW - 60_000);
const secondsAgo = (s: number) => iso(NOW - s * 1000);

interface ContainerState {
  waiting?: string;
  terminated?: { reason?: string; exitCode?: number };
}
interface Condition {
  type: string;
  status?: string;
  reason?: string;
  transition?: 'old' | 'new';
}

/** One pod of a row, in the words of upstream's builders. */
export interface PodSpec {
  name: string;
  /**
   * rs: buildTestPodWithRSOwnerRefForNode1; rsPending: …WithPendingPhase…; plain: buildTestPodForNode1;
   * stuck: test.BuildTestPod(name, 0, 0, n1) with an RS owner; buildPod: buildPod(name, "node1").
   */
  builder: 'rs' | 'rsPending' | 'plain' | 'stuck' | 'buildPod';
  created?: string;
  phase?: string;
  reason?: string;
  labels?: Record<string, string>;
  terminating?: boolean;
  pvc?: boolean;
  owners?: OwnerReference[];
  containers?: ContainerState[];
  initContainers?: ContainerState[];
  ephemeralContainers?: ContainerState[];
  conditions?: Condition[];
}

export interface PodLifeTimeRow {
  suite: string;
  description: string;
  args: Record<string, unknown>;
  pods: PodSpec[];
  /** node1 for the buildPod suites, n1 otherwise. */
  nodeName: 'n1' | 'node1';
  expectedEvictedPodCount: number;
  expectedEvictedPods?: string[];
  ignorePvcPods?: boolean;
  maxPodsToEvictPerNode?: number;
  maxPodsToEvictPerNamespace?: number;
  maxPodsToEvictTotal?: number;
}

const statusOf = (c: ContainerState) => ({
  name: 'c',
  image: '',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: {
    ...(c.waiting ? { waiting: { reason: c.waiting } } : {}),
    ...(c.terminated
      ? { terminated: { exitCode: c.terminated.exitCode ?? 0, reason: c.terminated.reason } }
      : {}),
  },
});

export function buildPodOf(spec: PodSpec): Pod {
  const [cpu, mem, node] =
    spec.builder === 'buildPod' ? [1, 1, 'node1'] : spec.builder === 'stuck' ? [0, 0, 'n1'] : [100, 0, 'n1'];
  return t.buildTestPod(spec.name, cpu, mem, node, (p) => {
    const meta = p.metadata!;
    if (spec.builder !== 'plain') meta.ownerReferences = t.replicaSetOwnerRefs();
    if (spec.created) t.writable(meta).creationTimestamp = spec.created;
    if (spec.owners) meta.ownerReferences = spec.owners;
    if (spec.labels) meta.labels = spec.labels;
    if (spec.terminating) t.setTerminating(p);
    if (spec.pvc) p.spec!.volumes = [{ name: 'pvc', persistentVolumeClaim: { claimName: 'foo' } }];
    const status: NonNullable<Pod['status']> = {};
    const phase = spec.phase ?? (spec.builder === 'rsPending' ? 'Pending' : undefined);
    if (phase) status.phase = phase;
    if (spec.reason) status.reason = spec.reason;
    if (spec.containers) status.containerStatuses = spec.containers.map(statusOf);
    if (spec.initContainers) status.initContainerStatuses = spec.initContainers.map(statusOf);
    if (spec.ephemeralContainers) status.ephemeralContainerStatuses = spec.ephemeralContainers.map(statusOf);
    if (spec.conditions)
      status.conditions = spec.conditions.map((c) => ({
        type: c.type,
        status: c.status ?? '',
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.transition
          ? { lastTransitionTime: c.transition === 'old' ? OLD_TRANSITION : NEW_TRANSITION }
          : {}),
      }));
    if (Object.keys(status).length) t.writable(p).status = status;
  });
}

export const nodeOf = (name: string): Node => t.buildTestNode(name, 2000, 3000, 10);

const MAX = 600;
const JOB: OwnerReference[] = [{ kind: 'Job', name: 'job1', apiVersion: 'batch/v1', uid: '' }];
const old = (name: string, extra: Partial<PodSpec> = {}): PodSpec => ({
  name,
  builder: 'rs',
  created: OLDER,
  ...extra,
});
const oldPending = (name: string, extra: Partial<PodSpec> = {}): PodSpec => ({
  name,
  builder: 'rsPending',
  created: OLDER,
  ...extra,
});
const fresh = (name: string): PodSpec => ({ name, builder: 'rs', created: NEWER });
const bp = (name: string, extra: Partial<PodSpec> = {}): PodSpec => ({ name, builder: 'buildPod', ...extra });

/** A waiting-reason row: p9 pending with its containers (or init/ephemeral ones) waiting. */
const waitingRow = (
  description: string,
  states: string[],
  where: 'containers' | 'initContainers' | 'ephemeralContainers',
  reason: string,
  expected: number,
  flags: Record<string, boolean> = {},
): PodLifeTimeRow => ({
  suite: 'TestPodLifeTime_ContainerWaitingReasons',
  description,
  args: { maxPodLifeTimeSeconds: MAX, states, ...flags },
  pods: [oldPending('p9', { [where]: [{ waiting: reason }] })],
  nodeName: 'n1',
  expectedEvictedPodCount: expected,
});

const statusReasonRow = (reason: string): PodLifeTimeRow => ({
  suite: 'TestPodLifeTime_PodStatusReasons',
  description: `1 pod with pod status reason ${reason} should be evicted`,
  args: { maxPodLifeTimeSeconds: MAX, states: [reason] },
  pods: [oldPending('p9', { reason })],
  nodeName: 'n1',
  expectedEvictedPodCount: 1,
});

const phaseRow = (phase: string): PodLifeTimeRow => ({
  suite: 'TestPodLifeTime_PodPhaseStates',
  description: `1 pod with pod status phase v1.Pod${phase} should be evicted`,
  args: { maxPodLifeTimeSeconds: MAX, states: [phase] },
  pods: [old('p16', { phase })],
  nodeName: 'n1',
  expectedEvictedPodCount: 1,
});

export const podLifeTimeRows = (): PodLifeTimeRow[] => [
  {
    suite: 'TestPodLifeTime',
    description: 'No pod should be evicted since pod terminating',
    args: { maxPodLifeTimeSeconds: MAX, labelSelector: { matchLabels: { foo: 'bar' } } },
    pods: [old('p14', { terminating: true }), old('p15', { terminating: true })],
    nodeName: 'n1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestPodLifeTime_EvictorConfiguration',
    description: 'Does not evict pvc pods with ignorePvcPods set to true',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [old('p11', { pvc: true })],
    nodeName: 'n1',
    expectedEvictedPodCount: 0,
    ignorePvcPods: true,
  },
  {
    suite: 'TestPodLifeTime_EvictorConfiguration',
    description: 'Evicts pvc pods with ignorePvcPods set to false (or unset)',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [old('p11', { pvc: true })],
    nodeName: 'n1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestPodLifeTime_GenericFiltering',
    description: '1 pod matching label selector should be evicted',
    args: { maxPodLifeTimeSeconds: MAX, labelSelector: { matchLabels: { foo: 'bar' } } },
    pods: [old('p12', { labels: { foo: 'bar' } }), old('p13', { labels: { foo: 'bar1' } })],
    nodeName: 'n1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p12'],
  },
  {
    suite: 'TestPodLifeTime_EvictionLimits',
    description:
      '2 Oldest pods should be evicted when maxPodsToEvictPerNode and maxPodsToEvictPerNamespace are not set',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [fresh('p1'), old('p2'), oldPending('p9')],
    nodeName: 'n1',
    expectedEvictedPodCount: 2,
    expectedEvictedPods: ['p2', 'p9'],
  },
  {
    suite: 'TestPodLifeTime_EvictionLimits',
    description: '1 Oldest pod should be evicted when maxPodsToEvictPerNamespace is set to 1',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [fresh('p1'), old('p2')],
    nodeName: 'n1',
    maxPodsToEvictPerNamespace: 1,
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p2'],
  },
  {
    suite: 'TestPodLifeTime_EvictionLimits',
    description: '1 Oldest pod should be evicted when maxPodsToEvictTotal is set to 1',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [fresh('p1'), old('p2')],
    nodeName: 'n1',
    maxPodsToEvictPerNamespace: 2,
    maxPodsToEvictTotal: 1,
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p2'],
  },
  {
    suite: 'TestPodLifeTime_EvictionLimits',
    description: '1 Oldest pod should be evicted when maxPodsToEvictPerNode is set to 1',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [fresh('p1'), old('p2')],
    nodeName: 'n1',
    maxPodsToEvictPerNode: 1,
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p2'],
  },
  {
    suite: 'TestPodLifeTime_ContainerWaitingReasons',
    description: 'Two pods, one with ContainerCreating state. 1 should be evicted.',
    args: { maxPodLifeTimeSeconds: MAX, states: ['ContainerCreating'] },
    pods: [
      oldPending('p9'),
      {
        name: 'container-creating-stuck',
        builder: 'stuck',
        created: OLDER,
        containers: [{ waiting: 'ContainerCreating' }],
      },
    ],
    nodeName: 'n1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestPodLifeTime_ContainerWaitingReasons',
    description: 'Two pods, one with PodInitializing state. 1 should be evicted.',
    args: { maxPodLifeTimeSeconds: MAX, states: ['PodInitializing'] },
    pods: [
      oldPending('p9'),
      {
        name: 'pod-initializing-stuck',
        builder: 'stuck',
        created: OLDER,
        containers: [{ waiting: 'PodInitializing' }],
      },
    ],
    nodeName: 'n1',
    expectedEvictedPodCount: 1,
  },
  waitingRow(
    '1 pod with container status ImagePullBackOff should be evicted',
    ['ImagePullBackOff'],
    'containers',
    'ImagePullBackOff',
    1,
  ),
  waitingRow(
    '1 pod with container status CrashLoopBackOff should be evicted',
    ['CrashLoopBackOff'],
    'containers',
    'CrashLoopBackOff',
    1,
  ),
  waitingRow(
    '1 pod with container status CreateContainerConfigError should be evicted',
    ['CreateContainerConfigError'],
    'containers',
    'CreateContainerConfigError',
    1,
  ),
  waitingRow(
    '1 pod with container status ErrImagePull should be evicted',
    ['ErrImagePull'],
    'containers',
    'ErrImagePull',
    1,
  ),
  waitingRow(
    '1 pod with init container status CreateContainerError should not be evicted without includingInitContainers',
    ['CreateContainerError'],
    'initContainers',
    'CreateContainerError',
    0,
  ),
  waitingRow(
    '1 pod with init container status CreateContainerError should be evicted with includingInitContainers',
    ['CreateContainerError'],
    'initContainers',
    'CreateContainerError',
    1,
    { includingInitContainers: true },
  ),
  waitingRow(
    '1 pod with ephemeral container status CreateContainerError should not be evicted without includingEphemeralContainers',
    ['CreateContainerError'],
    'ephemeralContainers',
    'CreateContainerError',
    0,
  ),
  waitingRow(
    '1 pod with ephemeral container status CreateContainerError should be evicted with includingEphemeralContainers',
    ['CreateContainerError'],
    'ephemeralContainers',
    'CreateContainerError',
    1,
    { includingEphemeralContainers: true },
  ),
  waitingRow(
    '1 pod with container status CreateContainerError should be evicted',
    ['CreateContainerError'],
    'containers',
    'CreateContainerError',
    1,
  ),
  waitingRow(
    '1 pod with container status InvalidImageName should be evicted',
    ['InvalidImageName'],
    'containers',
    'InvalidImageName',
    1,
  ),
  waitingRow(
    '1 pod with ImagePullBackOff status should be ignored when States filter is ContainerCreating',
    ['ContainerCreating'],
    'containers',
    'ImagePullBackOff',
    0,
  ),
  statusReasonRow('NodeLost'),
  statusReasonRow('NodeAffinity'),
  statusReasonRow('Shutdown'),
  statusReasonRow('UnexpectedAdmissionError'),
  {
    suite: 'TestPodLifeTime_AgeThreshold',
    description: 'Two pods in the default namespace, 1 is new and 1 very is old. 1 should be evicted.',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [fresh('p1'), old('p2')],
    nodeName: 'n1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p2'],
  },
  {
    suite: 'TestPodLifeTime_AgeThreshold',
    description: 'Two pods in the default namespace, 2 are new and 0 are old. 0 should be evicted.',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [fresh('p3'), fresh('p4')],
    nodeName: 'n1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestPodLifeTime_AgeThreshold',
    description: 'Two pods in the default namespace, 1 created 605 seconds ago. 1 should be evicted.',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [fresh('p5'), { name: 'p6', builder: 'rs', created: secondsAgo(605) }],
    nodeName: 'n1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p6'],
  },
  {
    suite: 'TestPodLifeTime_AgeThreshold',
    description: 'Two pods in the default namespace, 1 created 595 seconds ago. 0 should be evicted.',
    args: { maxPodLifeTimeSeconds: MAX },
    pods: [
      { name: 'p7', builder: 'plain', created: NEWER },
      { name: 'p8', builder: 'plain', created: secondsAgo(595) },
    ],
    nodeName: 'n1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestPodLifeTime_PodPhaseStates',
    description: 'Two old pods with different states. 1 should be evicted.',
    args: { maxPodLifeTimeSeconds: MAX, states: ['Pending'] },
    pods: [oldPending('p9'), old('p10', { phase: 'Running' })],
    nodeName: 'n1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p9'],
  },
  phaseRow('Succeeded'),
  phaseRow('Failed'),
  phaseRow('Unknown'),
  {
    suite: 'TestStatesWithTerminatedReasons',
    description: 'evict pod with matching terminated reason via states',
    args: { states: ['NodeAffinity'] },
    pods: [bp('p1', { phase: 'Failed', containers: [{ terminated: { reason: 'NodeAffinity' } }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestStatesWithTerminatedReasons',
    description: 'evict pod with matching pod status reason via states',
    args: { states: ['Shutdown'] },
    pods: [bp('p1', { phase: 'Failed', reason: 'Shutdown' })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestStatesWithTerminatedReasons',
    description: 'states matches terminated reason on init container',
    args: { states: ['CreateContainerConfigError'], includingInitContainers: true },
    pods: [bp('p1', { initContainers: [{ terminated: { reason: 'CreateContainerConfigError' } }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestStatesWithTerminatedReasons',
    description: 'states does not match terminated reason on init container without flag',
    args: { states: ['CreateContainerConfigError'] },
    pods: [bp('p1', { initContainers: [{ terminated: { reason: 'CreateContainerConfigError' } }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestConditionFiltering',
    description: 'evict pod with matching condition reason',
    args: { conditions: [{ reason: 'PodCompleted', status: 'True' }] },
    pods: [
      bp('p1', {
        conditions: [{ type: 'Initialized', status: 'True', reason: 'PodCompleted', transition: 'old' }],
      }),
      bp('p2', {
        conditions: [{ type: 'Initialized', status: 'True', reason: 'OtherReason', transition: 'old' }],
      }),
    ],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p1'],
  },
  {
    suite: 'TestConditionFiltering',
    description: 'evict pod matching condition type only',
    args: { conditions: [{ type: 'Ready' }] },
    pods: [bp('p1', { conditions: [{ type: 'Ready', status: 'False', transition: 'old' }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestConditionFiltering',
    description: 'no matching conditions, 0 evictions',
    args: { conditions: [{ reason: 'PodCompleted' }] },
    pods: [bp('p1', { conditions: [{ type: 'Ready', status: 'True', reason: 'SomethingElse' }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestTransitionTimeFiltering',
    description: 'evict pod with old transition time',
    args: {
      states: ['Succeeded'],
      conditions: [{ reason: 'PodCompleted', status: 'True', minTimeSinceLastTransitionSeconds: 300 }],
    },
    pods: [
      bp('p1', {
        phase: 'Succeeded',
        conditions: [
          { type: 'Initialized', status: 'True', reason: 'PodCompleted', transition: 'old' },
          { type: 'Ready', status: 'False', reason: 'PodCompleted', transition: 'old' },
        ],
      }),
    ],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p1'],
  },
  {
    suite: 'TestTransitionTimeFiltering',
    description: 'do not evict pod with recent transition time',
    args: { states: ['Succeeded'], conditions: [{ minTimeSinceLastTransitionSeconds: 14400 }] },
    pods: [
      bp('p1', { phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'False', transition: 'new' }] }),
    ],
    nodeName: 'node1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestTransitionTimeFiltering',
    description: 'transition time scoped to matching conditions only',
    args: { conditions: [{ reason: 'PodCompleted', minTimeSinceLastTransitionSeconds: 300 }] },
    pods: [
      bp('p1', {
        conditions: [
          { type: 'Initialized', reason: 'PodCompleted', transition: 'old' },
          { type: 'Ready', reason: 'OtherReason', transition: 'new' },
        ],
      }),
    ],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p1'],
  },
  {
    suite: 'TestTransitionTimeFiltering',
    description: 'no conditions on pod, transition time filter returns false',
    args: { states: ['Running'], conditions: [{ minTimeSinceLastTransitionSeconds: 300 }] },
    pods: [bp('p1', { phase: 'Running' })],
    nodeName: 'node1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestOwnerKindsFiltering',
    description: 'exclude Job owner kind: Job-owned pod not evicted',
    args: { states: ['Failed'], ownerKinds: { exclude: ['Job'] } },
    pods: [bp('p1', { phase: 'Failed', owners: JOB })],
    nodeName: 'node1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestOwnerKindsFiltering',
    description: 'exclude Job owner kind: non-Job pod still evicted',
    args: { states: ['Failed'], ownerKinds: { exclude: ['Job'] } },
    pods: [bp('p1', { phase: 'Failed', owners: JOB }), bp('p2', { phase: 'Failed' })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p2'],
  },
  {
    suite: 'TestOwnerKindsFiltering',
    description: 'include only Job owner kind',
    args: { states: ['Failed'], ownerKinds: { include: ['Job'] } },
    pods: [bp('p1', { phase: 'Failed', owners: JOB }), bp('p2', { phase: 'Failed' })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['p1'],
  },
  {
    suite: 'TestStatesWithEphemeralContainers',
    description: 'states matches terminated reason on ephemeral container',
    args: { states: ['OOMKilled'], includingEphemeralContainers: true },
    pods: [bp('p1', { ephemeralContainers: [{ terminated: { reason: 'OOMKilled' } }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestStatesWithEphemeralContainers',
    description: 'states does not match ephemeral container without flag',
    args: { states: ['OOMKilled'] },
    pods: [bp('p1', { ephemeralContainers: [{ terminated: { reason: 'OOMKilled' } }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestExitCodesFiltering',
    description: 'evict pod with matching exit code',
    args: { states: ['Failed'], exitCodes: [1] },
    pods: [bp('p1', { phase: 'Failed', containers: [{ terminated: { exitCode: 1 } }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
  },
  {
    suite: 'TestExitCodesFiltering',
    description: 'exit code not matched, 0 evictions',
    args: { states: ['Failed'], exitCodes: [2] },
    pods: [bp('p1', { phase: 'Failed', containers: [{ terminated: { exitCode: 1 } }] })],
    nodeName: 'node1',
    expectedEvictedPodCount: 0,
  },
  {
    suite: 'TestCombinedFilters',
    description: 'user scenario: Succeeded + PodCompleted condition + transition time threshold',
    args: {
      states: ['Succeeded'],
      conditions: [{ reason: 'PodCompleted', status: 'True', minTimeSinceLastTransitionSeconds: 300 }],
    },
    pods: [
      bp('stale-completed', {
        phase: 'Succeeded',
        conditions: [
          { type: 'Initialized', status: 'True', reason: 'PodCompleted', transition: 'old' },
          { type: 'Ready', status: 'False', reason: 'PodCompleted', transition: 'old' },
        ],
      }),
      bp('recent-completed', {
        phase: 'Succeeded',
        conditions: [{ type: 'Initialized', status: 'True', reason: 'PodCompleted', transition: 'new' }],
      }),
      bp('running-pod', { phase: 'Running' }),
    ],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['stale-completed'],
  },
  {
    suite: 'TestCombinedFilters',
    description: 'failed pod removal compat: Failed + min age + exclude Job',
    args: { states: ['Failed'], maxPodLifeTimeSeconds: 0, ownerKinds: { exclude: ['Job'] } },
    pods: [
      bp('failed-rs', { phase: 'Failed', containers: [{ terminated: { reason: 'Error' } }] }),
      bp('failed-job', { phase: 'Failed', owners: JOB }),
    ],
    nodeName: 'node1',
    expectedEvictedPodCount: 1,
    expectedEvictedPods: ['failed-rs'],
  },
];

/** Upstream's TestValidation rows: args and whether validation refuses them. */
export const podLifeTimeValidationRows: {
  description: string;
  args: Record<string, unknown>;
  expectError: boolean;
}[] = [
  { description: 'valid: states set', args: { states: ['Running'] }, expectError: false },
  {
    description: 'valid: conditions set',
    args: { conditions: [{ reason: 'PodCompleted' }] },
    expectError: false,
  },
  {
    description: 'valid: maxPodLifeTimeSeconds set',
    args: { maxPodLifeTimeSeconds: 600 },
    expectError: false,
  },
  {
    description: 'valid: states with maxPodLifeTimeSeconds',
    args: { states: ['Running'], maxPodLifeTimeSeconds: 600 },
    expectError: false,
  },
  {
    description: 'valid: states with conditions',
    args: { states: ['Succeeded'], conditions: [{ reason: 'PodCompleted' }] },
    expectError: false,
  },
  { description: 'valid: exitCodes only', args: { exitCodes: [1] }, expectError: false },
  {
    description: 'valid: condition with minTimeSinceLastTransitionSeconds',
    args: { conditions: [{ reason: 'PodCompleted', minTimeSinceLastTransitionSeconds: 300 }] },
    expectError: false,
  },
  {
    description: 'valid: condition with only minTimeSinceLastTransitionSeconds',
    args: { conditions: [{ minTimeSinceLastTransitionSeconds: 300 }] },
    expectError: false,
  },
  { description: 'invalid: no filter criteria', args: {}, expectError: true },
  {
    description: 'invalid: both include and exclude namespaces',
    args: { states: ['Running'], namespaces: { include: ['a'], exclude: ['b'] } },
    expectError: true,
  },
  {
    description: 'invalid: both include and exclude ownerKinds',
    args: { states: ['Running'], ownerKinds: { include: ['Job'], exclude: ['ReplicaSet'] } },
    expectError: true,
  },
  { description: 'invalid: bad state name', args: { states: ['NotAState'] }, expectError: true },
  { description: 'invalid: empty condition filter', args: { conditions: [{}] }, expectError: true },
];
