/**
 * Cluster events the scheduling queue reacts to (upstream kube-scheduler framework types.go
 * ActionType/EventResource/ClusterEvent, and framework/events.go): which part of which object
 * changed, how a plugin registers interest in events, and how an event is matched against a
 * registration. Plugins answer each event with a QueueingHint.
 */
import { canonicalJson, podRequests, type Node, type Pod } from '@schedlab/k8s';

/** Bit flags, in upstream's order; a registration's flags match any event with a subset of them. */
export const ActionType = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  /** Taints, and spec.unschedulable turned off. */
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdateNodeDeclaredFeature: 1 << 7,
  UpdateNodePreemptionPolicy: 1 << 8,
  UpdatePodLabel: 1 << 9,
  UpdatePodScaleDown: 1 << 10,
  UpdatePodScaleUp: 1 << 11,
  UpdatePodToleration: 1 << 12,
  UpdatePodSchedulingGatesEliminated: 1 << 13,
  UpdatePodGeneratedResourceClaim: 1 << 14,
  All: (1 << 15) - 1,
  /** Every specific update. */
  Update: ((1 << 15) - 1) & ~((1 << 0) | (1 << 1)),
  None: 0,
} as const;

const ACTION_NAMES: [number, string][] = Object.entries(ActionType).map(([k, v]) => [v, k]);

export type EventResource =
  | 'Pod'
  | 'AssignedPod'
  | 'UnscheduledPod'
  | 'TargetPod'
  | 'Node'
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'storage.k8s.io/CSINode'
  | 'storage.k8s.io/CSIDriver'
  | 'storage.k8s.io/VolumeAttachment'
  | 'storage.k8s.io/CSIStorageCapacity'
  | 'storage.k8s.io/StorageClass'
  | 'resource.k8s.io/ResourceClaim'
  | 'resource.k8s.io/ResourceSlice'
  | 'resource.k8s.io/DeviceClass'
  | '*';

/** Every resource a plugin can register for, `Pod` unrolled into its three kinds. */
export const ALL_EVENT_RESOURCES: readonly EventResource[] = [
  'AssignedPod',
  'UnscheduledPod',
  'TargetPod',
  'Node',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/VolumeAttachment',
  'storage.k8s.io/CSIStorageCapacity',
  'storage.k8s.io/StorageClass',
  'resource.k8s.io/ResourceClaim',
  'resource.k8s.io/ResourceSlice',
  'resource.k8s.io/DeviceClass',
];

export interface ClusterEvent {
  resource: EventResource;
  actionType: number;
  /** Names the queue's own events (UnschedulableTimeout, ForceActivate). */
  customLabel?: string;
}

export function eventLabel(e: ClusterEvent): string {
  if (e.customLabel) return e.customLabel;
  const name = ACTION_NAMES.find(([v]) => v === e.actionType)?.[1] ?? String(e.actionType);
  return `${e.resource}${name}`;
}

/** Whether the hint says the pod may now be schedulable. */
export enum QueueingHint {
  QueueSkip = 0,
  Queue = 1,
}

/** Answers whether `oldObj → newObj` may make `pod` schedulable; may throw (counted as Queue). */
export type QueueingHintFn = (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint;

export interface ClusterEventWithHint {
  event: ClusterEvent;
  /** Absent: every matching event queues the pod. */
  queueingHintFn?: QueueingHintFn;
}

/** A plugin that says which events can make the pods it rejected schedulable (upstream EnqueueExtensions). */
export interface EnqueueExtensions {
  readonly name: string;
  eventsToRegister(): ClusterEventWithHint[];
}

export function hasEnqueueExtensions(p: object): p is EnqueueExtensions {
  return typeof (p as Partial<EnqueueExtensions>).eventsToRegister === 'function';
}

export const ScheduleAttemptFailure = 'ScheduleAttemptFailure';
export const BackoffComplete = 'BackoffComplete';
export const PopFromBackoffQ = 'PopFromBackoffQ';
export const ForceActivate = 'ForceActivate';
export const UnschedulableTimeout = 'UnschedulableTimeout';

export const EventAssignedPodAdd: ClusterEvent = { resource: 'AssignedPod', actionType: ActionType.Add };
export const EventAssignedPodUpdate: ClusterEvent = {
  resource: 'AssignedPod',
  actionType: ActionType.Update,
};
export const EventAssignedPodDelete: ClusterEvent = {
  resource: 'AssignedPod',
  actionType: ActionType.Delete,
};
export const EventUnscheduledPodAdd: ClusterEvent = {
  resource: 'UnscheduledPod',
  actionType: ActionType.Add,
};
export const EventUnscheduledPodUpdate: ClusterEvent = {
  resource: 'UnscheduledPod',
  actionType: ActionType.Update,
};
export const EventUnscheduledPodDelete: ClusterEvent = {
  resource: 'UnscheduledPod',
  actionType: ActionType.Delete,
};
export const EventNodeAdd: ClusterEvent = { resource: 'Node', actionType: ActionType.Add };
export const EventNodeDelete: ClusterEvent = { resource: 'Node', actionType: ActionType.Delete };
export const EventUnschedulableTimeout: ClusterEvent = {
  resource: '*',
  actionType: ActionType.All,
  customLabel: UnschedulableTimeout,
};
export const EventForceActivate: ClusterEvent = {
  resource: '*',
  actionType: ActionType.All,
  customLabel: ForceActivate,
};

export function clusterEventIsWildCard(e: ClusterEvent): boolean {
  return e.resource === '*' && e.actionType === ActionType.All;
}

function matchEventResources(registered: EventResource, incoming: EventResource): boolean {
  return (
    registered === '*' ||
    registered === incoming ||
    (registered === 'Pod' &&
      (incoming === 'AssignedPod' || incoming === 'UnscheduledPod' || incoming === 'TargetPod'))
  );
}

/**
 * Whether `incoming` falls under the registration `registered`: same (or wildcard) resource and an
 * action at least as specific. A Node/Update event (no specific part named) matches only a
 * registration for every update, never one for UpdateNodeLabel alone.
 */
export function matchClusterEvents(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  return (
    clusterEventIsWildCard(registered) ||
    (matchEventResources(registered.resource, incoming.resource) &&
      (registered.actionType & incoming.actionType) !== 0 &&
      incoming.actionType <= registered.actionType)
  );
}

export function matchAnyClusterEvent(incoming: ClusterEvent, registered: readonly ClusterEvent[]): boolean {
  return registered.some((r) => matchClusterEvents(r, incoming));
}

/** What a plugin without EnqueueExtensions is registered for: every resource, every action. */
export function unrollWildCardResource(): ClusterEventWithHint[] {
  return ALL_EVENT_RESOURCES.map((resource) => ({ event: { resource, actionType: ActionType.All } }));
}

/** A registration for `Pod` stands for its three kinds. */
export function unrollPodEvent(e: ClusterEvent): ClusterEvent[] {
  if (e.resource !== 'Pod') return [e];
  return (['AssignedPod', 'UnscheduledPod', 'TargetPod'] as const).map((resource) => ({ ...e, resource }));
}

/**
 * Equal content whatever the order of object keys (upstream's Semantic.DeepEqual on API objects);
 * callers pass `?? {}` / `?? []` where upstream's nil and empty compare equal. Quantities compare
 * as written ("1" and "1000m" differ), which at worst reports one change too many.
 */
export function semanticallyEqual(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

const labelsChanged = (a?: Record<string, string>, b?: Record<string, string>) =>
  !semanticallyEqual(a ?? {}, b ?? {});

function requestsOf(pod: Pod): Map<string, number> {
  return podRequests(pod, {});
}

/**
 * The events one pod update amounts to (upstream PodSchedulingPropertiesChange): label change,
 * scale down/up, scheduling gates removed, tolerations added (and claims generated with DRA); a
 * plain Update when nothing specific changed. `isTargetPod` names the pending pod's own update.
 */
export function podSchedulingPropertiesChange(
  newPod: Pod,
  oldPod: Pod,
  isTargetPod: boolean,
): ClusterEvent[] {
  const resource: EventResource = newPod.spec?.nodeName
    ? 'AssignedPod'
    : isTargetPod
      ? 'TargetPod'
      : 'UnscheduledPod';
  const actions: number[] = [];
  if (labelsChanged(newPod.metadata?.labels, oldPod.metadata?.labels))
    actions.push(ActionType.UpdatePodLabel);
  const oldReq = requestsOf(oldPod);
  const newReq = requestsOf(newPod);
  for (const [name, v] of oldReq) {
    const n = newReq.get(name);
    if (n === undefined || v > n) {
      actions.push(ActionType.UpdatePodScaleDown);
      break;
    }
  }
  for (const [name, v] of newReq) {
    const o = oldReq.get(name);
    if (o === undefined || v > o) {
      actions.push(ActionType.UpdatePodScaleUp);
      break;
    }
  }
  if ((newPod.spec?.schedulingGates ?? []).length === 0 && (oldPod.spec?.schedulingGates ?? []).length !== 0)
    actions.push(ActionType.UpdatePodSchedulingGatesEliminated);
  if ((newPod.spec?.tolerations ?? []).length !== (oldPod.spec?.tolerations ?? []).length)
    actions.push(ActionType.UpdatePodToleration);
  const claimStatuses = (p: Pod) =>
    (p.status as { resourceClaimStatuses?: unknown } | undefined)?.resourceClaimStatuses;
  if (!semanticallyEqual(claimStatuses(newPod) ?? [], claimStatuses(oldPod) ?? []))
    actions.push(ActionType.UpdatePodGeneratedResourceClaim);
  if (actions.length === 0) actions.push(ActionType.Update);
  return actions.map((actionType) => ({ resource, actionType }));
}

/**
 * The events one node update amounts to (upstream NodeSchedulingPropertiesChange); empty when
 * nothing the scheduler looks at changed.
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
  const actions: number[] = [];
  if (oldNode.spec?.unschedulable !== newNode.spec?.unschedulable && !newNode.spec?.unschedulable)
    actions.push(ActionType.UpdateNodeTaint);
  if (!semanticallyEqual(oldNode.status?.allocatable ?? {}, newNode.status?.allocatable ?? {}))
    actions.push(ActionType.UpdateNodeAllocatable);
  if (labelsChanged(newNode.metadata?.labels, oldNode.metadata?.labels))
    actions.push(ActionType.UpdateNodeLabel);
  if (!semanticallyEqual(newNode.spec?.taints ?? [], oldNode.spec?.taints ?? []))
    actions.push(ActionType.UpdateNodeTaint);
  const conditions = (n: Node) =>
    Object.fromEntries((n.status?.conditions ?? []).map((c) => [c.type, c.status]));
  if (!semanticallyEqual(conditions(oldNode), conditions(newNode)))
    actions.push(ActionType.UpdateNodeCondition);
  if (!semanticallyEqual(oldNode.metadata?.annotations ?? {}, newNode.metadata?.annotations ?? {}))
    actions.push(ActionType.UpdateNodeAnnotation);
  const declared = (n: Node) => (n.status as { declaredFeatures?: string[] } | undefined)?.declaredFeatures;
  if (!semanticallyEqual(declared(oldNode) ?? [], declared(newNode) ?? []))
    actions.push(ActionType.UpdateNodeDeclaredFeature);
  return actions.map((actionType) => ({ resource: 'Node', actionType }));
}

/**
 * The old and new objects of an event as the kind a hint expects (upstream util.As): throws, which
 * the queue takes as Queue, when either is present but not an object.
 */
export function asObjects<T>(oldObj: unknown, newObj: unknown): [T | undefined, T] {
  for (const o of [oldObj, newObj]) {
    if (o != null && (typeof o !== 'object' || Array.isArray(o)))
      throw new Error(`unexpected object of type ${typeof o} in a cluster event`);
  }
  return [(oldObj ?? undefined) as T | undefined, newObj as T];
}

/** The pod a deletion event removed: upstream's hints fail (and so queue) without one. */
export function deletedPodOf(oldObj: unknown, newObj: unknown): Pod {
  const [deleted] = asObjects<Pod>(oldObj, newObj);
  if (!deleted) throw new Error('a pod deletion needs the deleted pod');
  return deleted;
}

/** Whether a pod held a node's resources: bound to it, or nominated to it. */
export const heldANode = (pod: Pod): boolean => Boolean(pod.spec?.nodeName || pod.status?.nominatedNodeName);
