/** DefaultPreemption: the in-tree PostFilter plugin that evicts lower-priority pods (upstream defaultpreemption). */
import { ActionType, QueueingHint, type ClusterEventWithHint, type EnqueueExtensions } from '../../events';
import { podPriority } from '@schedlab/k8s';
import type { Pod, PodDisruptionBudget } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import type {
  Handle,
  NodeToStatusMap,
  PostFilterPlugin,
  PostFilterResult,
  PreEnqueuePlugin,
} from '../../interface';
import { Evaluator, PreemptionInterface, VictimSelection } from '../../preemption/evaluator';
import { compareByImportance } from '../../preemption/util';
import { Code, MaybeStatus, Status, isSuccess } from '../../status';
import type { NodeInfo, PodInfo } from '../../types';
import { PluginNames } from '../names';
import { DefaultPreemptionArgs } from './args';
import { filterPodsWithPDBViolation } from './pdb';

export const MSG_NOT_ELIGIBLE_PREEMPT_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const MSG_NOT_ELIGIBLE_TERMINATING_POD =
  'not eligible due to a terminating pod on the nominated node.';
export const MSG_NO_VICTIMS = 'No preemption victims found for incoming pod';
export const PREEMPTION_MESSAGE_PREFIX = 'preemption: ';

export interface DefaultPreemptionOptions {
  /**
   * Where the candidate search starts among the potential nodes: a number in [0, n).
   * Upstream draws it at random; the default is 0 so replays are deterministic (with ≤100
   * potential nodes every node is dry-run anyway, so the offset cannot change the result).
   */
  randomInt?: (n: number) => number;
}

export class DefaultPreemption
  implements PreEnqueuePlugin, PostFilterPlugin, PreemptionInterface, EnqueueExtensions
{
  readonly name = PluginNames.DefaultPreemption;
  private readonly randomInt: (n: number) => number;

  constructor(
    readonly args: DefaultPreemptionArgs,
    private readonly handle: Handle,
    options: DefaultPreemptionOptions = {},
  ) {
    this.randomInt = options.randomInt ?? (() => 0);
  }

  /**
   * From 1.33 upstream blocks a pod while its own asynchronous preemption is still evicting
   * victims. The simulation evicts synchronously inside PostFilter, so nothing is ever in flight.
   */
  /**
   * With asynchronous preemption (1.33+) DefaultPreemption gates a preemptor while its victims go;
   * it registers the victims' deletion but answers QueueSkip (the preemption's end re-activates
   * the pod); before, it registers nothing.
   */
  eventsToRegister(): ClusterEventWithHint[] {
    if (!this.handle.features.enabled('SchedulerAsyncPreemption')) return [];
    return [
      {
        event: { resource: 'AssignedPod', actionType: ActionType.Delete },
        queueingHintFn: () => QueueingHint.QueueSkip,
      },
    ];
  }

  preEnqueue(_pod: Pod): MaybeStatus {
    return null;
  }

  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatusMap: NodeToStatusMap,
  ): { result?: PostFilterResult; status: MaybeStatus } {
    const evaluator = new Evaluator(this.handle, state, this);
    const { result, status } = evaluator.preempt(pod, filteredNodeStatusMap);
    const msg = status?.message() ?? '';
    if (status && msg !== '') {
      return { result, status: new Status(status.code, [PREEMPTION_MESSAGE_PREFIX + msg]) };
    }
    return { result, status };
  }

  /** max(n × percentage / 100, absolute), capped at n (integer arithmetic as upstream's int32). */
  calculateNumCandidates(numNodes: number): number {
    let n = Math.trunc((numNodes * this.args.minCandidateNodesPercentage) / 100);
    if (n < this.args.minCandidateNodesAbsolute) n = this.args.minCandidateNodesAbsolute;
    if (n > numNodes) n = numNodes;
    return n;
  }

  getOffsetAndNumCandidates(numNodes: number): [number, number] {
    return [this.randomInt(numNodes), this.calculateNumCandidates(numNodes)];
  }

  podEligibleToPreemptOthers(pod: Pod, nominatedNodeStatus: MaybeStatus): [boolean, string] {
    if (pod.spec?.preemptionPolicy === 'Never') return [false, MSG_NOT_ELIGIBLE_PREEMPT_NEVER];
    const nominated = pod.status?.nominatedNodeName;
    if (nominated) {
      // The nominated node cannot take the pod anyway: preempting elsewhere is fine.
      if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable) return [true, ''];
      const nodeInfo = this.handle.snapshot().get(nominated);
      if (nodeInfo) {
        const prio = podPriority(pod);
        for (const p of nodeInfo.pods) {
          // Earlier victims still terminating there: wait for them rather than evict more.
          if (p.pod.metadata?.deletionTimestamp && podPriority(p.pod) < prio) {
            return [false, MSG_NOT_ELIGIBLE_TERMINATING_POD];
          }
        }
      }
    }
    return [true, ''];
  }

  /**
   * Removes every lower-priority pod from the (cloned) node; if the pod then fits, puts them
   * back one by one — PDB-violating ones first, most important first — keeping each that
   * still lets the pod fit. The pods not put back are the victims.
   */
  selectVictimsOnNode(
    state: CycleState,
    pod: Pod,
    nodeInfo: NodeInfo,
    pdbs: readonly PodDisruptionBudget[],
  ): VictimSelection {
    const fail = (status: Status): VictimSelection => ({ victims: [], numPDBViolations: 0, status });
    const removePod = (pi: PodInfo): Status | null => {
      nodeInfo.removePod(pi.uid);
      const s = this.handle.runPreFilterExtensionRemovePod(state, pod, pi, nodeInfo);
      return isSuccess(s) ? null : Status.error(s!.message());
    };
    const addPod = (pi: PodInfo): Status | null => {
      nodeInfo.addPodInfo(pi);
      const s = this.handle.runPreFilterExtensionAddPod(state, pod, pi, nodeInfo);
      return isSuccess(s) ? null : Status.error(s!.message());
    };

    const prio = podPriority(pod);
    const potentialVictims: PodInfo[] = [];
    for (const pi of [...nodeInfo.pods]) {
      if (podPriority(pi.pod) < prio) {
        potentialVictims.push(pi);
        const err = removePod(pi);
        if (err) return fail(err);
      }
    }
    if (potentialVictims.length === 0) return fail(Status.unresolvable(MSG_NO_VICTIMS));

    // Even without any lower-priority pod the pod does not fit: preemption cannot help here.
    const fitStatus = this.handle.runFilterPlugins(state, pod, nodeInfo);
    if (!isSuccess(fitStatus)) return fail(fitStatus!);

    potentialVictims.sort((a, b) => compareByImportance(a.pod, b.pod));
    const { violating, nonViolating } = filterPodsWithPDBViolation(potentialVictims, pdbs);
    const victims: Pod[] = [];
    let numPDBViolations = 0;
    // Returns whether the pod still fits with `pi` back on the node, or an error status.
    const reprieve = (pi: PodInfo): boolean | Status => {
      const err = addPod(pi);
      if (err) return err;
      if (isSuccess(this.handle.runFilterPlugins(state, pod, nodeInfo))) return true;
      const err2 = removePod(pi);
      if (err2) return err2;
      victims.push(pi.pod);
      return false;
    };
    for (const pi of violating) {
      const r = reprieve(pi);
      if (r instanceof Status) return fail(r);
      if (!r) numPDBViolations++;
    }
    for (const pi of nonViolating) {
      const r = reprieve(pi);
      if (r instanceof Status) return fail(r);
    }
    if (this.handle.features.behaviour.preemptionVictimsSortedByImportance) {
      victims.sort(compareByImportance);
    }
    return { victims, numPDBViolations, status: null };
  }
}
