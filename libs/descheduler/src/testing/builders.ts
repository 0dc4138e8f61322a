/**
 * Test objects shaped like upstream descheduler's test/test_utils.go builders, so its test tables
 * port as data: the same names, requests, owners and annotations.
 */
import type { KubeObject, Node, OwnerReference, Pod } from '@schedlab/k8s';

export function buildTestPod(
  name: string,
  milliCpu: number,
  memory: number,
  nodeName: string,
  apply?: (pod: Pod) => void,
): Pod {
  const requests: Record<string, string> = {};
  if (milliCpu >= 0) requests.cpu = `${milliCpu}m`;
  if (memory >= 0) requests.memory = String(memory);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: 'default', name, uid: `uid-${name}` },
    spec: { containers: [{ name: 'c', resources: { requests, limits: {} } }], nodeName },
  } as Pod;
  apply?.(pod);
  return pod;
}

export function buildTestNode(
  name: string,
  milliCpu: number,
  memory: number,
  pods: number,
  apply?: (node: Node) => void,
): Node {
  const resources = { pods: String(pods), cpu: `${milliCpu}m`, memory: String(memory) };
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: {} as Record<string, string> },
    spec: {},
    status: {
      capacity: { ...resources },
      allocatable: { ...resources },
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  } as Node;
  apply?.(node);
  return node;
}

export const replicaSetOwnerRefs = (): OwnerReference[] => [
  { kind: 'ReplicaSet', apiVersion: 'v1', name: 'replicaset-1', uid: '' },
];
export const statefulSetOwnerRefs = (): OwnerReference[] => [
  { kind: 'StatefulSet', apiVersion: 'v1', name: 'statefulset-1', uid: '' },
];
export const daemonSetOwnerRefs = (): OwnerReference[] => [
  { kind: 'DaemonSet', apiVersion: 'v1', name: '', uid: '' },
];
export const normalOwnerRefs = (): OwnerReference[] => [{ kind: 'Pod', apiVersion: 'v1', name: '', uid: '' }];

export const setRSOwnerRef = (pod: Pod) => void (pod.metadata!.ownerReferences = replicaSetOwnerRefs());
export const setSSOwnerRef = (pod: Pod) => void (pod.metadata!.ownerReferences = statefulSetOwnerRefs());
export const setDSOwnerRef = (pod: Pod) => void (pod.metadata!.ownerReferences = daemonSetOwnerRefs());
export const setNormalOwnerRef = (pod: Pod) => void (pod.metadata!.ownerReferences = normalOwnerRefs());

export const mirrorPodAnnotations = (): Record<string, string> => ({
  'kubernetes.io/created-by': '{"kind":"SerializedReference","apiVersion":"v1","reference":{"kind":"Pod"}}',
  'kubernetes.io/config.source': 'api',
  'kubernetes.io/config.mirror': 'mirror',
});
export const setMirrorPodAnnotation = (pod: Pod) => void (pod.metadata!.annotations = mirrorPodAnnotations());
export const setPodPriority = (pod: Pod, priority: number) => void (pod.spec!.priority = priority);
export const setHostPathEmptyDirVolumeSource = (pod: Pod) =>
  void (pod.spec!.volumes = [
    { name: 'sample', hostPath: { path: 'somePath' }, emptyDir: { sizeLimit: '10' } },
  ]);
export const setNodeUnschedulable = (node: Node) => void (node.spec!.unschedulable = true);

export function makeBestEffortPod(pod: Pod): void {
  pod.spec!.containers[0].resources = {};
}
export function makeBurstablePod(pod: Pod): void {
  delete pod.spec!.containers[0].resources!.limits;
}
export function makeGuaranteedPod(pod: Pod): void {
  const r = pod.spec!.containers[0].resources!;
  r.limits = { cpu: r.requests!.cpu, memory: r.requests!.memory };
}

/** Required anti-affinity against pods labelled key=value, across the `region` topology. */
export function setPodAntiAffinity(pod: Pod, key: string, value: string): void {
  pod.spec!.affinity = {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        {
          labelSelector: { matchExpressions: [{ key, operator: 'In', values: [value] }] },
          topologyKey: 'region',
        },
      ],
    },
  };
}

export function podWithPodAntiAffinity(pod: Pod, key: string, value: string): Pod {
  setPodAntiAffinity(pod, key, value);
  pod.metadata!.labels = { [key]: value };
  return pod;
}

export function buildTestPDB(name: string, appLabel: string): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { namespace: 'default', name },
    spec: { selector: { matchLabels: { app: appLabel } }, maxUnavailable: 1 },
  };
}

export function buildTestPVC(name: string, storageClass: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { namespace: 'default', name },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: storageClass,
      resources: { requests: { storage: '1Gi' } },
    },
  };
}

export function buildTestNamespace(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
  };
}

/** kubernetes-types marks server-set fields read-only; test builders set them anyway. */
export const writable = <T>(o: T): { -readonly [K in keyof T]: T[K] } =>
  o as { -readonly [K in keyof T]: T[K] };
/** Marks the pod terminating, as upstream's tests do with a zero deletionTimestamp. */
export const setTerminating = (pod: Pod) =>
  void (writable(pod.metadata!).deletionTimestamp = '0001-01-01T00:00:00Z');
