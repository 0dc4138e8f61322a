/**
 * What the scheduling queue takes from each profile's framework (upstream scheduler.go
 * buildQueueingHintMap and the framework's EnqueueExtensions): its PreEnqueue plugins, and for
 * every plugin at PreEnqueue, PreFilter, Filter, Reserve or Permit the events it registered with
 * their QueueingHint functions. A plugin that registers nothing specific is interested in every
 * event (upstream's default for plugins without EnqueueExtensions).
 */
import type { FeatureSet } from '../../features';
import {
  hasEnqueueExtensions,
  unrollPodEvent,
  unrollWildCardResource,
  type ClusterEvent,
  type ClusterEventWithHint,
} from '../../framework/events';
import type { Plugin } from '../../framework/interface';
import type { Framework } from '../../framework/runtime/framework';
import {
  PriorityQueue,
  type PriorityQueueOptions,
  type QueueProfile,
  type QueueingHintMap,
} from './scheduling-queue';
import type { Clock } from './clock';
import type { QueuedPodInfo } from './queued-pod-info';

/** The plugins whose rejections the queue tracks, each once, in extension-point order. */
function enqueueExtensionPlugins(fwk: Framework): Plugin[] {
  const seen = new Set<string>();
  const out: Plugin[] = [];
  const lists: readonly Plugin[][] = [
    fwk.preEnqueuePlugins,
    fwk.preFilterPlugins,
    fwk.filterPlugins,
    fwk.reservePlugins,
    fwk.permitPlugins,
  ];
  for (const list of lists) {
    for (const p of list) {
      if (seen.has(p.name)) continue;
      seen.add(p.name);
      out.push(p);
    }
  }
  return out;
}

const sameEvent = (a: ClusterEvent, b: ClusterEvent) =>
  a.resource === b.resource &&
  a.actionType === b.actionType &&
  (a.customLabel ?? '') === (b.customLabel ?? '');

/** The profile's event registrations; with `queueingHints` off every hint is Queue. */
export function buildQueueingHintMap(plugins: readonly Plugin[], queueingHints: boolean): QueueingHintMap {
  const map: QueueingHintMap = [];
  for (const p of plugins) {
    const events: ClusterEventWithHint[] = hasEnqueueExtensions(p)
      ? p.eventsToRegister()
      : unrollWildCardResource();
    for (const { event, queueingHintFn } of events) {
      for (const e of unrollPodEvent(event)) {
        let entry = map.find((m) => sameEvent(m.event, e));
        if (!entry) map.push((entry = { event: e, fns: [] }));
        entry.fns.push({ pluginName: p.name, queueingHintFn: queueingHints ? queueingHintFn : undefined });
      }
    }
  }
  return map;
}

export function queueProfileOf(fwk: Framework, queueingHints: boolean): QueueProfile {
  return {
    schedulerName: fwk.profileName,
    preEnqueuePlugins: fwk.preEnqueuePlugins,
    queueingHintMap: buildQueueingHintMap(enqueueExtensionPlugins(fwk), queueingHints),
  };
}

/** The queue settings of a release: its gates and the 1.33 backoff accounting. */
export function queueFeatures(
  features: FeatureSet,
): Pick<PriorityQueueOptions, 'popFromBackoffQ' | 'queueingHints' | 'backoffCountsRejectionsAndErrorsApart'> {
  return {
    popFromBackoffQ: features.enabled('SchedulerPopFromBackoffQ'),
    queueingHints: features.enabled('SchedulerQueueingHints'),
    backoffCountsRejectionsAndErrorsApart: features.behaviour.backoffCountsRejectionsAndErrorsApart,
  };
}

export interface SchedulingQueueSettings {
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  podMaxInUnschedulablePodsSeconds?: number;
}

/**
 * One queue for every profile, as upstream: the first profile's QueueSort orders activeQ (the
 * configuration loader already requires every profile to share it).
 */
export function newSchedulingQueue(
  frameworks: readonly Framework[],
  features: FeatureSet,
  clock: Clock,
  settings: SchedulingQueueSettings = {},
): PriorityQueue {
  const qf = queueFeatures(features);
  const sorter = frameworks[0]?.queueSortPlugin;
  const less = sorter ? (a: QueuedPodInfo, b: QueuedPodInfo) => sorter.less(a, b) : undefined;
  return new PriorityQueue({
    clock,
    less,
    profiles: frameworks.map((f) => queueProfileOf(f, qf.queueingHints)),
    ...settings,
    ...qf,
  });
}
