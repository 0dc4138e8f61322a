/**
 * Upstream's DefaultEvictor tables (descheduler v0.36.0,
 * pkg/framework/plugins/defaultevictor/defaultevictor_test.go): TestDefaultEvictorPreEvictionFilter,
 * TestDefaultEvictorFilter, TestReinitialization, TestGetEffectivePodProtections_TableDriven,
 * Test_protectedPVCStorageClasses, TestMultipleProfilesWithDifferentNamespaceLabelSelectors and
 * TestNamespaceLabelSelectorAllOperations, as data. Args are given as a policy would give them.
 */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import * as t from '../../../testing/builders';

export const NOW = Date.parse('2026-01-01T00:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

const node = (name: string, apply?: (n: Node) => void) => t.buildTestNode(name, 1000, 2000, 13, apply);
const pod = (name: string, nodeName: string, apply?: (p: Pod) => void) =>
  t.buildTestPod(name, 400, 0, nodeName, apply);
const N1 = 'node1';
const setNodeTaint = (n: Node) =>
  void (n.spec!.taints = [{ key: 'hardware', value: 'gpu', effect: 'NoSchedule' }]);
const setNodeLabel = (n: Node) => void (n.metadata!.labels = { datacenter: 'east' });
const setPodNodeSelector = (p: Pod) => void (p.spec!.nodeSelector = { datacenter: 'east' });
const EVICT = 'descheduler.alpha.kubernetes.io/evict';
const PREFER_NO_EVICTION = 'descheduler.alpha.kubernetes.io/prefer-no-eviction';
const setEvictAnnotation = (p: Pod) => void (p.metadata!.annotations = { [EVICT]: 'true' });
const setPvcFoo = (p: Pod) =>
  void (p.spec!.volumes = [{ name: 'pvc', persistentVolumeClaim: { claimName: 'foo' } }]);
const OWNER_UID = 'owner-ref-uid';
const withOwnerUid = (p: Pod) => {
  t.setNormalOwnerRef(p);
  p.metadata!.ownerReferences![0].uid = OWNER_UID;
};
const labelled = (labels: Record<string, string>) => (p: Pod) => void (p.metadata!.labels = labels);
const withNamespace = (ns: string, apply?: (p: Pod) => void) => (p: Pod) => {
  p.metadata!.namespace = ns;
  apply?.(p);
};
const protectedClasses = (...names: string[]) => ({
  PodsWithPVC: { protectedStorageClasses: names.map((name) => ({ name })) },
});

export interface EvictorRow {
  description: string;
  /** Which extension point the row asks (upstream's two test functions). */
  point: 'preEvictionFilter' | 'filter';
  /** The first pod is the one asked about; the others are in the cluster. */
  pods: Pod[];
  nodes?: Node[];
  objects?: KubeObject[];
  args: Record<string, unknown>;
  result: boolean;
}

const namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': 'test' } };

export const preEvictionFilterRows = (): EvictorRow[] => [
  {
    description: 'Pod with no tolerations running on normal node, all other nodes tainted',
    point: 'preEvictionFilter',
    pods: [pod('p1', N1, t.setNormalOwnerRef)],
    nodes: [node('node2', setNodeTaint), node('node3', setNodeTaint)],
    args: { nodeFit: true },
    result: false,
  },
  {
    description: 'Pod with correct tolerations running on normal node, all other nodes tainted',
    point: 'preEvictionFilter',
    pods: [
      pod('p1', N1, (p) => {
        t.setNormalOwnerRef(p);
        p.spec!.tolerations = [{ key: 'hardware', value: 'gpu', effect: 'NoSchedule' }];
      }),
    ],
    nodes: [node('node2', setNodeTaint), node('node3', setNodeTaint)],
    args: { nodeFit: true },
    result: true,
  },
  {
    description: 'Pod with incorrect node selector',
    point: 'preEvictionFilter',
    pods: [
      pod('p1', N1, (p) => {
        t.setNormalOwnerRef(p);
        p.spec!.nodeSelector = { datacenter: 'fail' };
      }),
    ],
    nodes: [node('node2', setNodeLabel), node('node3', setNodeLabel)],
    args: { nodeFit: true },
    result: false,
  },
  {
    description: 'Pod with correct node selector',
    point: 'preEvictionFilter',
    pods: [
      pod('p1', N1, (p) => {
        t.setNormalOwnerRef(p);
        setPodNodeSelector(p);
      }),
    ],
    nodes: [node('node2', setNodeLabel), node('node3', setNodeLabel)],
    args: { nodeFit: true },
    result: true,
  },
  {
    description: "Pod with correct node selector, but only available node doesn't have enough CPU",
    point: 'preEvictionFilter',
    pods: [
      t.buildTestPod('p1', 12, 8, N1, (p) => {
        t.setNormalOwnerRef(p);
        setPodNodeSelector(p);
      }),
    ],
    nodes: [
      t.buildTestNode('node2-TEST', 10, 16, 10, setNodeLabel),
      t.buildTestNode('node3-TEST', 10, 16, 10, setNodeLabel),
    ],
    args: { nodeFit: true },
    result: false,
  },
  {
    description: 'Pod with correct node selector, and one node has enough memory',
    point: 'preEvictionFilter',
    pods: [
      t.buildTestPod('p1', 12, 8, N1, (p) => {
        t.setNormalOwnerRef(p);
        setPodNodeSelector(p);
      }),
      t.buildTestPod('node2-pod-10GB-mem', 20, 10, 'node2', labelled({ test: 'true' })),
      t.buildTestPod('node3-pod-10GB-mem', 20, 10, 'node3', labelled({ test: 'true' })),
    ],
    nodes: [
      t.buildTestNode('node2', 100, 16, 10, setNodeLabel),
      t.buildTestNode('node3', 100, 20, 10, setNodeLabel),
    ],
    args: { nodeFit: true },
    result: true,
  },
  {
    description: "Pod with correct node selector, but both nodes don't have enough memory",
    point: 'preEvictionFilter',
    pods: [
      t.buildTestPod('p1', 12, 8, N1, (p) => {
        t.setNormalOwnerRef(p);
        setPodNodeSelector(p);
      }),
      t.buildTestPod('node2-pod-10GB-mem', 10, 10, 'node2', labelled({ test: 'true' })),
      t.buildTestPod('node3-pod-10GB-mem', 10, 10, 'node3', labelled({ test: 'true' })),
    ],
    nodes: [
      t.buildTestNode('node2', 100, 16, 10, setNodeLabel),
      t.buildTestNode('node3', 100, 16, 10, setNodeLabel),
    ],
    args: { nodeFit: true },
    result: false,
  },
  {
    description: 'Pod with incorrect node selector, but nodefit false, should still be evicted',
    point: 'preEvictionFilter',
    pods: [
      pod('p1', N1, (p) => {
        t.setNormalOwnerRef(p);
        p.spec!.nodeSelector = { datacenter: 'fail' };
      }),
    ],
    nodes: [node('node2', setNodeLabel), node('node3', setNodeLabel)],
    args: {},
    result: true,
  },
  {
    description: 'Pod with namespace matched namespace selector, should be evicted',
    point: 'preEvictionFilter',
    pods: [
      t.buildTestPod(
        'p1',
        400,
        0,
        N1,
        withNamespace('test', (p) => (t.setNormalOwnerRef(p), setPodNodeSelector(p))),
      ),
    ],
    nodes: [node('node2', setNodeLabel), node('node3', setNodeLabel)],
    objects: [t.buildTestNamespace('default'), t.buildTestNamespace('test')],
    args: { nodeFit: true, namespaceLabelSelector: namespaceSelector },
    result: true,
  },
  {
    description: 'Pod with namespace does not matched namespace selector, should not be evicted',
    point: 'preEvictionFilter',
    pods: [
      t.buildTestPod('p1', 400, 0, N1, (p) => {
        t.setNormalOwnerRef(p);
        p.spec!.nodeSelector = { datacenter: 'fail' };
      }),
    ],
    nodes: [node('node2', setNodeLabel), node('node3', setNodeLabel)],
    objects: [t.buildTestNamespace('default'), t.buildTestNamespace('test')],
    args: { nodeFit: true, namespaceLabelSelector: namespaceSelector },
    result: false,
  },
];

const filterRow = (
  description: string,
  pods: Pod[],
  args: Record<string, unknown>,
  result: boolean,
  extra: Partial<EvictorRow> = {},
): EvictorRow => ({ description, point: 'filter', pods, args, result, ...extra });

export const filterRows = (): EvictorRow[] => [
  filterRow(
    'Failed pod eviction with no ownerRefs',
    [pod('bare_pod_failed', N1, (p) => void (t.writable(p).status = { phase: 'Failed' }))],
    {},
    false,
  ),
  filterRow(
    'Normal pod eviction with no ownerRefs and evictFailedBarePods enabled',
    [pod('bare_pod', N1)],
    { evictFailedBarePods: true },
    false,
  ),
  filterRow(
    'Failed pod eviction with no ownerRefs (evictFailedBarePods enabled)',
    [pod('bare_pod_failed_but_can_be_evicted', N1, (p) => void (t.writable(p).status = { phase: 'Failed' }))],
    { evictFailedBarePods: true },
    true,
  ),
  filterRow('Normal pod eviction with normal ownerRefs', [pod('p1', N1, t.setNormalOwnerRef)], {}, true),
  filterRow(
    `Normal pod eviction with normal ownerRefs and ${EVICT} annotation`,
    [pod('p2', N1, (p) => (setEvictAnnotation(p), t.setNormalOwnerRef(p)))],
    {},
    true,
  ),
  filterRow(
    `Normal pod eviction with normal ownerRefs and ${PREFER_NO_EVICTION} annotation (preference)`,
    [
      pod(
        'p2',
        N1,
        (p) => ((p.metadata!.annotations = { [PREFER_NO_EVICTION]: '' }), t.setNormalOwnerRef(p)),
      ),
    ],
    {},
    true,
  ),
  filterRow(
    `Normal pod eviction with normal ownerRefs and ${PREFER_NO_EVICTION} annotation (mandatory)`,
    [
      pod(
        'p2',
        N1,
        (p) => ((p.metadata!.annotations = { [PREFER_NO_EVICTION]: '' }), t.setNormalOwnerRef(p)),
      ),
    ],
    { noEvictionPolicy: 'Mandatory' },
    false,
  ),
  filterRow('Normal pod eviction with replicaSet ownerRefs', [pod('p3', N1, t.setNormalOwnerRef)], {}, true),
  filterRow(
    `Normal pod eviction with replicaSet ownerRefs and ${EVICT} annotation`,
    [pod('p4', N1, (p) => (setEvictAnnotation(p), t.setRSOwnerRef(p)))],
    {},
    true,
  ),
  filterRow(
    'Normal pod eviction with statefulSet ownerRefs',
    [pod('p18', N1, t.setNormalOwnerRef)],
    {},
    true,
  ),
  filterRow(
    `Normal pod eviction with statefulSet ownerRefs and ${EVICT} annotation`,
    [pod('p19', N1, (p) => (setEvictAnnotation(p), t.setSSOwnerRef(p)))],
    {},
    true,
  ),
  filterRow(
    'Pod not evicted because it is bound to a PV and evictLocalStoragePods = false',
    [pod('p5', N1, (p) => (t.setNormalOwnerRef(p), t.setHostPathEmptyDirVolumeSource(p)))],
    {},
    false,
  ),
  filterRow(
    'Pod is evicted because it is bound to a PV and evictLocalStoragePods = true',
    [pod('p6', N1, (p) => (t.setNormalOwnerRef(p), t.setHostPathEmptyDirVolumeSource(p)))],
    { evictLocalStoragePods: true },
    true,
  ),
  filterRow(
    'Pod is evicted because it is bound to a PV and evictLocalStoragePods = false, but it has scheduler.alpha.kubernetes.io/evict annotation',
    [
      pod(
        'p7',
        N1,
        (p) => (setEvictAnnotation(p), t.setNormalOwnerRef(p), t.setHostPathEmptyDirVolumeSource(p)),
      ),
    ],
    {},
    true,
  ),
  filterRow(
    'Pod not evicted because it is part of a daemonSet',
    [pod('p8', N1, (p) => void (p.metadata!.ownerReferences = t.daemonSetOwnerRefs()))],
    {},
    false,
  ),
  filterRow(
    'Pod is evicted because it is part of a daemonSet, but it has scheduler.alpha.kubernetes.io/evict annotation',
    [pod('p9', N1, (p) => (setEvictAnnotation(p), (p.metadata!.ownerReferences = t.daemonSetOwnerRefs())))],
    {},
    true,
  ),
  filterRow(
    'Pod not evicted because it is a mirror poddsa',
    [pod('p10', N1, (p) => (t.setNormalOwnerRef(p), t.setMirrorPodAnnotation(p)))],
    {},
    false,
  ),
  filterRow(
    'Pod is evicted because it is a mirror pod, but it has scheduler.alpha.kubernetes.io/evict annotation',
    [
      pod(
        'p11',
        N1,
        (p) => (
          t.setNormalOwnerRef(p),
          t.setMirrorPodAnnotation(p),
          (p.metadata!.annotations![EVICT] = 'true')
        ),
      ),
    ],
    {},
    true,
  ),
  filterRow(
    'Pod not evicted because it has system critical priority',
    [pod('p12', N1, (p) => (t.setNormalOwnerRef(p), t.setPodPriority(p, 2_000_000_000)))],
    {},
    false,
  ),
  filterRow(
    'Pod is evicted because it has system critical priority, but it has scheduler.alpha.kubernetes.io/evict annotation',
    [
      pod(
        'p13',
        N1,
        (p) => (t.setNormalOwnerRef(p), t.setPodPriority(p, 2_000_000_000), setEvictAnnotation(p)),
      ),
    ],
    {},
    true,
  ),
  filterRow(
    'Pod not evicted because it has a priority higher than the configured priority threshold',
    [pod('p14', N1, (p) => (t.setNormalOwnerRef(p), t.setPodPriority(p, 900)))],
    { priorityThreshold: { value: 800 } },
    false,
  ),
  filterRow(
    'Pod is evicted because it has a priority higher than the configured priority threshold, but it has scheduler.alpha.kubernetes.io/evict annotation',
    [pod('p15', N1, (p) => (t.setNormalOwnerRef(p), setEvictAnnotation(p), t.setPodPriority(p, 900)))],
    { priorityThreshold: { value: 800 } },
    true,
  ),
  filterRow(
    'Pod is evicted because it has system critical priority, but evictSystemCriticalPods = true',
    [pod('p16', N1, (p) => (t.setNormalOwnerRef(p), t.setPodPriority(p, 2_000_000_000)))],
    { evictSystemCriticalPods: true },
    true,
  ),
  filterRow(
    'Pod is evicted because it has system critical priority, but evictSystemCriticalPods = true and it has scheduler.alpha.kubernetes.io/evict annotation',
    [
      pod(
        'p16',
        N1,
        (p) => (t.setNormalOwnerRef(p), setEvictAnnotation(p), t.setPodPriority(p, 2_000_000_000)),
      ),
    ],
    { evictSystemCriticalPods: true },
    true,
  ),
  filterRow(
    'Pod is evicted because it has a priority higher than the configured priority threshold, but evictSystemCriticalPods = true',
    [pod('p17', N1, (p) => (t.setNormalOwnerRef(p), t.setPodPriority(p, 900)))],
    { evictSystemCriticalPods: true, priorityThreshold: { value: 800 } },
    true,
  ),
  filterRow(
    'Pod is evicted because it has a priority higher than the configured priority threshold, but evictSystemCriticalPods = true and it has scheduler.alpha.kubernetes.io/evict annotation',
    [pod('p17', N1, (p) => (t.setNormalOwnerRef(p), setEvictAnnotation(p), t.setPodPriority(p, 900)))],
    { evictSystemCriticalPods: true, priorityThreshold: { value: 800 } },
    true,
  ),
  filterRow(
    'Pod with no tolerations running on normal node, all other nodes tainted, no PreEvictionFilter, should ignore nodeFit',
    [pod('p1', N1, t.setNormalOwnerRef)],
    { nodeFit: true },
    true,
    { nodes: [node('node2', setNodeTaint), node('node3', setNodeTaint)] },
  ),
  filterRow(
    'minReplicas of 2, owner with 2 replicas, evicts',
    [t.buildTestPod('p1', 1, 1, N1, withOwnerUid), t.buildTestPod('p2', 1, 1, N1, withOwnerUid)],
    { minReplicas: 2 },
    true,
  ),
  filterRow(
    'minReplicas of 3, owner with 2 replicas, no eviction',
    [t.buildTestPod('p1', 1, 1, N1, withOwnerUid), t.buildTestPod('p2', 1, 1, N1, withOwnerUid)],
    { minReplicas: 3 },
    false,
  ),
  filterRow(
    'minReplicas of 2, multiple owners, no eviction',
    [
      t.buildTestPod('p1', 1, 1, N1, (p) => {
        p.metadata!.ownerReferences = [...t.normalOwnerRefs(), ...t.normalOwnerRefs()];
        p.metadata!.ownerReferences[0].uid = OWNER_UID;
      }),
      t.buildTestPod('p2', 1, 1, N1, t.setNormalOwnerRef),
    ],
    { minReplicas: 2 },
    true,
  ),
  filterRow(
    'minPodAge of 50, pod created 10 minutes ago, no eviction',
    [
      t.buildTestPod(
        'p1',
        1,
        1,
        N1,
        (p) => (t.setNormalOwnerRef(p), (t.writable(p).status = { startTime: minutesAgo(10) })),
      ),
    ],
    { minPodAge: '50m' },
    false,
  ),
  filterRow(
    'minPodAge of 50, pod created 60 minutes ago, evicts',
    [
      t.buildTestPod(
        'p1',
        1,
        1,
        N1,
        (p) => (t.setNormalOwnerRef(p), (t.writable(p).status = { startTime: minutesAgo(60) })),
      ),
    ],
    { minPodAge: '50m' },
    true,
  ),
  filterRow(
    'nil minPodAge, pod created 60 minutes ago, evicts',
    [
      t.buildTestPod(
        'p1',
        1,
        1,
        N1,
        (p) => (t.setNormalOwnerRef(p), (t.writable(p).status = { startTime: minutesAgo(60) })),
      ),
    ],
    {},
    true,
  ),
  filterRow(
    'ignorePodsWithoutPDB, pod with no PDBs, no eviction',
    [t.buildTestPod('p1', 1, 1, N1, (p) => (t.setNormalOwnerRef(p), labelled({ app: 'foo' })(p)))],
    { ignorePodsWithoutPDB: true },
    false,
  ),
  filterRow(
    'ignorePodsWithoutPDB, pod with PDBs, evicts',
    [t.buildTestPod('p1', 1, 1, N1, (p) => (t.setNormalOwnerRef(p), labelled({ app: 'foo' })(p)))],
    { ignorePodsWithoutPDB: true },
    true,
    { objects: [t.buildTestPDB('pdb1', 'foo')] },
  ),
  filterRow(
    'ignorePvcPods is set, pod with PVC, not evicts',
    [pod('p15', N1, (p) => (t.setNormalOwnerRef(p), setPvcFoo(p)))],
    { ignorePvcPods: true },
    false,
  ),
  filterRow(
    'ignorePvcPods is not set, pod with PVC, evicts',
    [pod('p15', N1, (p) => (t.setNormalOwnerRef(p), setPvcFoo(p)))],
    {},
    true,
  ),
  filterRow(
    "Pod with local storage is evicted because 'PodsWithLocalStorage' is in DefaultDisabled",
    [
      pod(
        'p18',
        N1,
        (p) => (t.setNormalOwnerRef(p), (p.spec!.volumes = [{ name: 'local-storage', emptyDir: {} }])),
      ),
    ],
    { podProtections: { defaultDisabled: ['PodsWithLocalStorage'] } },
    true,
  ),
  filterRow(
    "DaemonSet pod is evicted because 'DaemonSetPods' is in DefaultDisabled",
    [
      pod(
        'p19',
        N1,
        (p) =>
          void (p.metadata!.ownerReferences = [
            { kind: 'DaemonSet', name: 'daemonset-test', uid: 'daemonset-uid', apiVersion: '' },
          ]),
      ),
    ],
    { podProtections: { defaultDisabled: ['DaemonSetPods'] } },
    true,
  ),
  filterRow(
    "Pod with PVC is not evicted because 'PodsWithPVC' is in ExtraEnabled",
    [pod('p20', N1, (p) => (t.setNormalOwnerRef(p), setPvcFoo(p)))],
    { podProtections: { extraEnabled: ['PodsWithPVC'] } },
    false,
  ),
  filterRow(
    "Pod without PDB is not evicted because 'PodsWithoutPDB' is in ExtraEnabled",
    [pod('p21', N1, t.setNormalOwnerRef)],
    { podProtections: { extraEnabled: ['PodsWithoutPDB'] } },
    false,
  ),
  filterRow(
    "Pod with ResourceClaims is not evicted because 'PodsWithResourceClaims' is in ExtraEnabled",
    [
      pod('p20', N1, (p) => {
        t.setNormalOwnerRef(p);
        (p.spec as { resourceClaims?: unknown[] }).resourceClaims = [
          { name: 'test-claim', resourceClaimName: 'test-resource-claim' },
        ];
      }),
    ],
    { podProtections: { extraEnabled: ['PodsWithResourceClaims'] } },
    false,
  ),
  filterRow(
    "Pod using StorageClass is not evicted because 'PodsWithPVC' is in ExtraEnabled",
    [pod('p23', N1, (p) => (t.setNormalOwnerRef(p), setPvcFoo(p)))],
    { podProtections: { extraEnabled: ['PodsWithPVC'], config: protectedClasses('standard') } },
    false,
    { objects: [t.buildTestPVC('foo', 'standard')] },
  ),
  filterRow(
    "Pod using unprotected StorageClass is evicted even though 'PodsWithPVC' is in ExtraEnabled",
    [pod('p24', N1, (p) => (t.setNormalOwnerRef(p), setPvcFoo(p)))],
    { podProtections: { extraEnabled: ['PodsWithPVC'], config: protectedClasses('protected') } },
    true,
    { objects: [t.buildTestPVC('foo', 'unprotected')] },
  ),
  filterRow(
    'Pod using unexisting PVC is not evicted because we cannot determine if storage class is protected or not',
    [pod('p25', N1, (p) => (t.setNormalOwnerRef(p), setPvcFoo(p)))],
    { podProtections: { extraEnabled: ['PodsWithPVC'], config: protectedClasses('protected') } },
    false,
  ),
  filterRow(
    'Pod using protected and unprotected StorageClasses is not evicted',
    [
      pod('p26', N1, (p) => {
        t.setNormalOwnerRef(p);
        p.spec!.volumes = [
          { name: 'protected-pvc', persistentVolumeClaim: { claimName: 'protected' } },
          { name: 'unprotected-pvc', persistentVolumeClaim: { claimName: 'unprotected' } },
        ];
      }),
    ],
    { podProtections: { extraEnabled: ['PodsWithPVC'], config: protectedClasses('protected') } },
    false,
    { objects: [t.buildTestPVC('protected', 'protected'), t.buildTestPVC('unprotected', 'unprotected')] },
  ),
  // TestReinitialization's one row: building the evictor twice from the same args works and agrees.
  filterRow(
    'TestReinitialization: minReplicas of 2, multiple owners, eviction',
    [
      t.buildTestPod('p1', 1, 1, N1, (p) => {
        p.metadata!.ownerReferences = [...t.normalOwnerRefs(), ...t.normalOwnerRefs()];
        p.metadata!.ownerReferences[0].uid = OWNER_UID;
      }),
      t.buildTestPod('p2', 1, 1, N1, t.setNormalOwnerRef),
    ],
    { minReplicas: 2 },
    true,
  ),
];

/** TestGetEffectivePodProtections_TableDriven. */
const DEFAULT_SET = ['PodsWithLocalStorage', 'SystemCriticalPods', 'FailedBarePods', 'DaemonSetPods'];
export const effectiveProtectionRows: {
  name: string;
  podProtections: Record<string, string[]>;
  want: string[];
}[] = [
  {
    name: 'NewConfig_EmptyConfig_ReturnsDefault',
    podProtections: { defaultDisabled: [], extraEnabled: [] },
    want: DEFAULT_SET,
  },
  {
    name: 'NewConfig_DisableOneDefault_ReturnsDefaultMinusOne',
    podProtections: { defaultDisabled: ['PodsWithLocalStorage'], extraEnabled: [] },
    want: ['DaemonSetPods', 'SystemCriticalPods', 'FailedBarePods'],
  },
  {
    name: 'NewConfig_DisableMultipleDefaults_ReturnsDefaultMinusMultiple',
    podProtections: { defaultDisabled: ['DaemonSetPods', 'SystemCriticalPods'], extraEnabled: [] },
    want: ['PodsWithLocalStorage', 'FailedBarePods'],
  },
  {
    name: 'NewConfig_EnableOneExtra_ReturnsDefaultPlusOne',
    podProtections: { defaultDisabled: [], extraEnabled: ['PodsWithPVC'] },
    want: [...DEFAULT_SET, 'PodsWithPVC'],
  },
  {
    name: 'NewConfig_EnableMultipleExtra_ReturnsDefaultPlusMultiple',
    podProtections: { defaultDisabled: [], extraEnabled: ['PodsWithPVC', 'PodsWithoutPDB'] },
    want: [...DEFAULT_SET, 'PodsWithPVC', 'PodsWithoutPDB'],
  },
  {
    name: 'NewConfig_DisableAndEnable_ReturnsModifiedSet',
    podProtections: { defaultDisabled: ['FailedBarePods', 'DaemonSetPods'], extraEnabled: ['PodsWithPVC'] },
    want: ['PodsWithLocalStorage', 'SystemCriticalPods', 'PodsWithPVC'],
  },
  {
    name: 'NewConfig_EnableOneExtra(PodsWithResourceClaims)_ReturnsDefaultPlusOne',
    podProtections: { defaultDisabled: [], extraEnabled: ['PodsWithResourceClaims'] },
    want: [...DEFAULT_SET, 'PodsWithResourceClaims'],
  },
  {
    name: 'NewConfig_DisableAndEnable_ReturnsModifiedSet (with PodsWithResourceClaims)',
    podProtections: {
      defaultDisabled: ['FailedBarePods', 'DaemonSetPods'],
      extraEnabled: ['PodsWithPVC', 'PodsWithResourceClaims'],
    },
    want: ['PodsWithLocalStorage', 'SystemCriticalPods', 'PodsWithPVC', 'PodsWithResourceClaims'],
  },
];

/** Test_protectedPVCStorageClasses: the classes the args protect. */
export const protectedStorageClassRows: {
  name: string;
  podProtections: Record<string, unknown>;
  expected: string[] | undefined;
}[] = [
  { name: 'no PodProtections config', podProtections: {}, expected: undefined },
  { name: 'no PodsWithPVC config', podProtections: { config: {} }, expected: undefined },
  {
    name: 'storage classes specified',
    podProtections: { config: protectedClasses('sc1', 'sc2') },
    expected: ['sc1', 'sc2'],
  },
];

/** The namespaces and pods of TestNamespaceLabelSelectorAllOperations. */
export function namespaceOperationsCluster() {
  const ns = (name: string, labels: Record<string, string>) => ({
    ...t.buildTestNamespace(name),
    metadata: { name, labels },
  });
  const inNs = (name: string, namespace: string) =>
    t.buildTestPod(name, 100, 100, 'node1', withNamespace(namespace, t.setNormalOwnerRef));
  return {
    objects: [
      ns('ns-prod', { env: 'prod', tier: 'frontend' }),
      ns('ns-staging', { env: 'staging', tier: 'backend' }),
      ns('ns-test', { env: 'test' }),
      ns('ns-nolabels', {}),
    ] as KubeObject[],
    pods: {
      prod: inNs('pod-in-prod', 'ns-prod'),
      staging: inNs('pod-in-staging', 'ns-staging'),
      test: inNs('pod-in-test', 'ns-test'),
      nolabels: inNs('pod-in-nolabels', 'ns-nolabels'),
    },
  };
}

type OpsPod = 'prod' | 'staging' | 'test' | 'nolabels';
export const namespaceOperationRows: {
  name: string;
  selector: Record<string, unknown>;
  pass: OpsPod[];
  fail: OpsPod[];
}[] = [
  {
    name: 'MatchLabels and MatchExpressions In',
    selector: {
      matchLabels: { tier: 'frontend' },
      matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }],
    },
    pass: ['prod'],
    fail: ['staging', 'test'],
  },
  {
    name: 'MatchLabels and MatchExpressions Exists',
    selector: { matchLabels: { tier: 'backend' }, matchExpressions: [{ key: 'env', operator: 'Exists' }] },
    pass: ['staging'],
    fail: ['prod', 'test'],
  },
  {
    name: 'Exists and In',
    selector: {
      matchExpressions: [
        { key: 'tier', operator: 'Exists' },
        { key: 'env', operator: 'In', values: ['staging'] },
      ],
    },
    pass: ['staging'],
    fail: ['prod', 'test'],
  },
  {
    name: 'DoesNotExist',
    selector: { matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] },
    pass: ['test', 'nolabels'],
    fail: ['prod', 'staging'],
  },
  {
    name: 'NotIn',
    selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod', 'test'] }] },
    pass: ['staging'],
    fail: ['prod', 'test'],
  },
];
