// Short names for the upstream API types; the rest of Schedlab imports these instead of kubernetes-types paths.
export type {
  Pod,
  PodSpec,
  Container,
  ContainerPort,
  Node,
  Taint,
  Toleration,
  NodeSelector,
  NodeSelectorTerm,
  NodeSelectorRequirement,
  PreferredSchedulingTerm,
  Affinity,
  PodAffinityTerm,
  WeightedPodAffinityTerm,
  TopologySpreadConstraint,
  PersistentVolume,
  PersistentVolumeClaim,
  Namespace,
  Service,
  ReplicationController,
} from 'kubernetes-types/core/v1';
export type {
  LabelSelector,
  LabelSelectorRequirement,
  ObjectMeta,
  OwnerReference,
} from 'kubernetes-types/meta/v1';
export type { ReplicaSet, StatefulSet, Deployment, DaemonSet } from 'kubernetes-types/apps/v1';
export type { PriorityClass } from 'kubernetes-types/scheduling/v1';
export type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
export type { StorageClass, CSINode, CSIDriver, CSIStorageCapacity } from 'kubernetes-types/storage/v1';

/** A label (or annotation) map as stored in metadata.labels. */
export type Labels = Record<string, string>;
