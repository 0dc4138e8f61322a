/** Shared pieces of the scheduling-queue specs: upstream's test events, pods and queue builder. */
import type { Pod } from '@schedlab/k8s';
import { ActionType, QueueingHint, type ClusterEvent, type QueueingHintFn } from '../../../framework/events';
import type { PreEnqueuePlugin } from '../../../framework/interface';
import { PrioritySort } from '../../../framework/plugins/queuesort/priority-sort';
import { Status } from '../../../framework/status';
import { makePod } from '../../../testing/builders';
import { SimulatedClock } from '../clock';
import { QueuedPodInfo } from '../queued-pod-info';
import { PriorityQueue, type PriorityQueueOptions, type QueueingHintMap } from '../scheduling-queue';

/** A whole second, so SchedulerPopFromBackoffQ's windows start exactly at it. */
export const T0 = Date.UTC(2030, 0, 1);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

export const nodeAdd: ClusterEvent = { resource: 'Node', actionType: ActionType.Add };
export const pvAdd: ClusterEvent = { resource: 'PersistentVolume', actionType: ActionType.Add };
export const pvUpdate: ClusterEvent = { resource: 'PersistentVolume', actionType: ActionType.Update };
export const pvcAdd: ClusterEvent = { resource: 'PersistentVolumeClaim', actionType: ActionType.Add };
export const csiNodeUpdate: ClusterEvent = {
  resource: 'storage.k8s.io/CSINode',
  actionType: ActionType.Update,
};

export const lowPriority = 0;
export const midPriority = 100;
export const highPriority = 1000;
export const mediumPriority = (lowPriority + highPriority) / 2;

export const queueHintReturnQueue: QueueingHintFn = () => QueueingHint.Queue;
export const queueHintReturnSkip: QueueingHintFn = () => QueueingHint.QueueSkip;

/** A pod as upstream's st.MakePod() builds it (no scheduler name: the default profile). */
export function pod(
  name: string,
  opts: { ns?: string; uid?: string; priority?: number; labels?: Record<string, string> } = {},
): Pod {
  return makePod({
    name,
    namespace: opts.ns ?? 'default',
    uid: opts.uid ?? name,
    priority: opts.priority,
    labels: opts.labels,
  });
}

/** Upstream's test preEnqueuePlugin: lets in pods carrying one of the allowlisted label keys. */
export class AllowlistPreEnqueue implements PreEnqueuePlugin {
  constructor(
    private readonly allowlists: string[] = [],
    readonly name = 'preEnqueuePlugin',
  ) {}

  preEnqueue(p: Pod) {
    const labels = Object.keys(p.metadata?.labels ?? {});
    if (this.allowlists.some((a) => labels.includes(a))) return null;
    return Status.unresolvable('pod label not in allowlists');
  }
}

export function hintMap(entries: [ClusterEvent, [string, QueueingHintFn | undefined][]][]): QueueingHintMap {
  return entries.map(([event, fns]) => ({
    event,
    fns: fns.map(([pluginName, queueingHintFn]) => ({ pluginName, queueingHintFn })),
  }));
}

export interface TestQueue {
  q: PriorityQueue;
  clock: SimulatedClock;
}

/** A queue of the newest release's behaviour on a simulated clock at `start`. */
export function newTestQueue(
  o: Partial<PriorityQueueOptions> & {
    start?: number;
    hints?: QueueingHintMap;
    preEnqueue?: PreEnqueuePlugin[];
  } = {},
): TestQueue {
  const clock = new SimulatedClock(o.start ?? T0);
  const sort = new PrioritySort();
  const q = new PriorityQueue({
    clock,
    less: (a, b) => sort.less(a, b),
    profiles: o.profiles ?? [
      {
        schedulerName: 'default-scheduler',
        preEnqueuePlugins: o.preEnqueue ?? [],
        queueingHintMap: o.hints ?? [],
      },
    ],
    popFromBackoffQ: o.popFromBackoffQ ?? true,
    queueingHints: o.queueingHints ?? true,
    backoffCountsRejectionsAndErrorsApart: o.backoffCountsRejectionsAndErrorsApart ?? true,
    podInitialBackoffSeconds: o.podInitialBackoffSeconds,
    podMaxBackoffSeconds: o.podMaxBackoffSeconds,
    podMaxInUnschedulablePodsSeconds: o.podMaxInUnschedulablePodsSeconds,
  });
  return { q, clock };
}

/** Upstream newQueuedPodInfoForLookup / a QueuedPodInfo literal with some queueing params. */
export function queued(
  p: Pod,
  now: number,
  params: Partial<
    Pick<
      QueuedPodInfo,
      | 'attempts'
      | 'unschedulableCount'
      | 'consecutiveErrorsCount'
      | 'backoffExpiration'
      | 'gatingPlugin'
      | 'gatingPluginEvents'
    >
  > & { unschedulablePlugins?: string[]; pendingPlugins?: string[] } = {},
): QueuedPodInfo {
  const qpi = new QueuedPodInfo(p, now, params.unschedulablePlugins ?? []);
  for (const x of params.pendingPlugins ?? []) qpi.pendingPlugins.add(x);
  if (params.attempts !== undefined) qpi.attempts = params.attempts;
  if (params.unschedulableCount !== undefined) qpi.unschedulableCount = params.unschedulableCount;
  if (params.consecutiveErrorsCount !== undefined) qpi.consecutiveErrorsCount = params.consecutiveErrorsCount;
  if (params.backoffExpiration !== undefined) qpi.backoffExpiration = params.backoffExpiration;
  if (params.gatingPlugin !== undefined) {
    qpi.gatingPlugin = params.gatingPlugin;
    qpi.unschedulablePlugins = new Set([params.gatingPlugin]);
  }
  if (params.gatingPluginEvents !== undefined) qpi.gatingPluginEvents = params.gatingPluginEvents;
  return qpi;
}

export const names = (pods: Pod[]) => pods.map((p) => p.metadata?.name ?? '');
