// Public API of @schedlab/scheduler: the kube-scheduler engine and its simulation entry points.
export * from './simulation/simulate';
export {
  buildClusterState,
  isDefaultStorageClass,
  withStorageObjects,
  type ClusterState,
} from './simulation/cluster';
export {
  Simulator,
  podKey,
  DEFAULT_START_TIME_BASE,
  type ReplayCursor,
  type SimulatorOptions,
} from './simulation/simulator';
export { createNodeFit, type NodeFit, type NodeFitVerdict } from './simulation/node-fit';
export {
  bindingWritesObjects,
  fastForwardExplain,
  FastForwardRun,
  type FastForwardOutcome,
  type RecordedAttempt,
} from './simulation/fast-forward';
export type * from './simulation/results';
export { placementMessage } from './simulation/placement-message';
export { claimDevicesOf, type ClaimDevice } from './simulation/claim-devices';
export {
  FeatureSet,
  NEWEST_VERSION,
  SUPPORTED_VERSIONS,
  KNOWN_FEATURE_GATES,
  type CompatibilityVersion,
  type BehaviourSwitches,
} from './features';
export { loadSchedulerConfiguration, defaultConfiguration, ConfigValidationError } from './apis/config';
export type { ResolvedConfiguration, ResolvedProfile } from './apis/config';
export { inTreeRegistry } from './framework/plugins/registry';
export { PluginNames } from './framework/plugins/names';
export { fitErrorMessage } from './framework/fit-error';
export { installRequestPolicy, requestPolicyOf } from './framework/request-policy';
export { Snapshot } from './backend/cache/snapshot';
export { nodeTreeOrder, zoneKeyOf } from './backend/cache/node-tree';
export { ClusterObjects } from './backend/cache/cluster-objects';
export { podUid, syncPodClaims } from './framework/plugins/dynamicresources/claim-templates';
export type {
  DeviceClassSummary,
  NodeDeviceCount,
} from './framework/plugins/dynamicresources/device-summary';
export { numFeasibleNodesToFind } from './find-nodes';
export { DEFAULT_EXPLAIN_LEVEL, type TieBreak, type EvaluatedRange, type ExplainLevel } from './schedule-one';
export {
  TOP_SCORED_NODES,
  type AttemptExplanation,
  type FilterFailureGroup,
  type ScoredNode,
  type PluginScore,
} from './explanation';
export * as volumeBinding from './framework/plugins/volumebinding';
// The scheduling queue on a simulated clock (docs/engine.md, "The scheduling queue").
export {
  PriorityQueue,
  QueueingStrategy,
  ACTIVE_Q,
  BACKOFF_Q,
  UNSCHEDULABLE_Q,
  DEFAULT_POD_INITIAL_BACKOFF_SECONDS,
  DEFAULT_POD_MAX_BACKOFF_SECONDS,
  DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_SECONDS,
  type AttemptFailure,
  type PriorityQueueOptions,
  type QueueName,
  type QueueProfile,
  type QueueingHintMap,
} from './backend/queue/scheduling-queue';
export { QueuedPodInfo } from './backend/queue/queued-pod-info';
export { SimulatedClock, type Clock } from './backend/queue/clock';
export {
  newSchedulingQueue,
  queueFeatures,
  queueProfileOf,
  type SchedulingQueueSettings,
} from './backend/queue/queue-profiles';
export { attemptFailureOf } from './backend/queue/attempt-failure';
export {
  ActionType,
  QueueingHint,
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  EventAssignedPodUpdate,
  EventNodeAdd,
  EventNodeDelete,
  EventUnschedulableTimeout,
  eventLabel,
  nodeSchedulingPropertiesChange,
  podSchedulingPropertiesChange,
  type ClusterEvent,
  type ClusterEventWithHint,
  type EventResource,
} from './framework/events';
