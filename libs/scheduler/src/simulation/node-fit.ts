/**
 * Would a running pod fit on a node if it were scheduled again: the profile's own PreFilter and
 * Filter plugins for that one pod on that one node, with the pod taken out of the cluster where
 * it runs now (its requests, ports, and its share of spread and affinity counts), as
 * preemption's dry run takes victims out. This is the descheduler's NodeFit answered by the
 * engine, so the descheduler and the scheduler cannot disagree about a node.
 */
import type { Pod } from '@schedlab/k8s';
import { CycleState } from '../framework/cycle-state';
import type { Framework } from '../framework/runtime/framework';
import { isSuccess, type MaybeStatus } from '../framework/status';
import { NodeInfo, PodInfo } from '../framework/types';
import type { Simulator } from './simulator';

export interface NodeFitVerdict {
  fits: boolean;
  /** The plugin that refused the pod and its reason, as a FitError names it. */
  plugin?: string;
  reason?: string;
}

/** The PreFilter pass of one pod, kept for every node it is checked against. */
interface PodCycle {
  fwk?: Framework;
  state: CycleState;
  preFilter: MaybeStatus;
  /** Nodes PreFilter narrowed the pod to, when a plugin did. */
  nodeNames?: ReadonlySet<string>;
  narrowedBy?: string[];
  /** The pod's current node without the pod, when it runs on one. */
  home?: NodeInfo;
}

export type NodeFit = (pod: Pod, nodeName: string) => NodeFitVerdict;

/**
 * A NodeFit over the simulator's snapshot as it is now. PreFilter runs once per pod (keyed by
 * uid) and is reused for every node asked about; build a new one after the cluster changes.
 */
export function createNodeFit(sim: Simulator): NodeFit {
  const cycles = new Map<string, PodCycle>();

  const cycleOf = (pod: Pod): PodCycle => {
    const info = new PodInfo(pod);
    const cached = cycles.get(info.uid);
    if (cached) return cached;
    const state = new CycleState();
    const fwk = sim.frameworkFor(pod);
    const cycle: PodCycle = { fwk, state, preFilter: null };
    cycles.set(info.uid, cycle);
    if (!fwk) return cycle;
    const pending = { ...pod, spec: { ...pod.spec!, nodeName: undefined } } as Pod;
    const pre = fwk.runPreFilterPlugins(state, pending);
    cycle.preFilter = pre.status;
    if (pre.result?.nodeNames) {
      cycle.nodeNames = pre.result.nodeNames;
      cycle.narrowedBy = pre.narrowedBy;
    }
    const current = pod.spec?.nodeName ? sim.snapshot.get(pod.spec.nodeName) : undefined;
    if (current && isSuccess(pre.status)) {
      const home = current.clone();
      const running = home.pods.find((p) => p.uid === info.uid);
      if (running) {
        home.removePod(running.uid);
        const removed = fwk.runPreFilterExtensionRemovePod(state, pending, running, home);
        if (!isSuccess(removed)) cycle.preFilter = removed;
        cycle.home = home;
      }
    }
    return cycle;
  };

  return (pod, nodeName) => {
    const cycle = cycleOf(pod);
    if (!cycle.fwk)
      return {
        fits: false,
        reason: `no profile for schedulerName "${pod.spec?.schedulerName ?? 'default-scheduler'}"`,
      };
    if (!isSuccess(cycle.preFilter))
      return {
        fits: false,
        plugin: cycle.preFilter!.plugin || undefined,
        reason: cycle.preFilter!.message(),
      };
    if (cycle.nodeNames && !cycle.nodeNames.has(nodeName))
      return {
        fits: false,
        plugin: cycle.narrowedBy?.[0],
        reason: `node(s) didn't satisfy plugin(s) [${(cycle.narrowedBy ?? []).join(' ')}]`,
      };
    const node = cycle.home?.name === nodeName ? cycle.home : sim.snapshot.get(nodeName);
    if (!node) return { fits: false, reason: `node "${nodeName}" not found` };
    const pending = { ...pod, spec: { ...pod.spec!, nodeName: undefined } } as Pod;
    const status = cycle.fwk.runFilterPlugins(cycle.state, pending, node);
    if (isSuccess(status)) return { fits: true };
    return { fits: false, plugin: status!.plugin || undefined, reason: status!.message() };
  };
}
