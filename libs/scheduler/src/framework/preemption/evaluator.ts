/**
 * The generic preemption algorithm (upstream framework/preemption.Evaluator): eligibility,
 * the nodes where evicting pods might help, a dry run per node on cloned state, and the
 * choice of one candidate. Plugin-specific parts come from a PreemptionInterface.
 *
 * Deviations from upstream, all for deterministic replay: the dry run is sequential (in
 * upstream's node order starting at the plugin's offset), and the final tie in
 * pickOneNodeForPreemption goes to the smallest node name instead of Go map order.
 */
import { podPriority } from '@schedlab/k8s';
import type { Pod, PodDisruptionBudget } from '@schedlab/k8s';
import type { CycleState } from '../cycle-state';
import { fitErrorMessage } from '../fit-error';
import { NodeToStatusMap, type Handle, type PostFilterResult, type PreemptionCandidate } from '../interface';
import { Code, MaybeStatus, Status } from '../status';
import type { NodeInfo } from '../types';
import { earliestStartTimeOfHighestPriority } from './util';

export const MSG_PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const MSG_NO_CANDIDATE_NODE = 'no candidate node for preemption';

export interface VictimSelection {
  victims: Pod[];
  numPDBViolations: number;
  /** null on success; otherwise why preemption cannot help on this node. */
  status: MaybeStatus;
}

/** What a preemption plugin decides (upstream preemption.Interface, minus extenders). */
export interface PreemptionInterface {
  /** Where the dry run starts in the list of potential nodes, and how many candidates suffice. */
  getOffsetAndNumCandidates(numNodes: number): [offset: number, numCandidates: number];
  /** [eligible, reason when not eligible]. */
  podEligibleToPreemptOthers(pod: Pod, nominatedNodeStatus: MaybeStatus): [boolean, string];
  /** Works on copies: `state` and `nodeInfo` are clones the plugin may mutate. */
  selectVictimsOnNode(
    state: CycleState,
    pod: Pod,
    nodeInfo: NodeInfo,
    pdbs: readonly PodDisruptionBudget[],
  ): VictimSelection;
}

export interface PreemptOutcome {
  result?: PostFilterResult;
  status: MaybeStatus;
}

export class Evaluator {
  constructor(
    readonly handle: Handle,
    readonly state: CycleState,
    readonly impl: PreemptionInterface,
  ) {}

  /**
   * Success: the nominated node with its victims. Failure: an Unschedulable status whose
   * message is the reason (a FitError string over the nodes that have a status) or an Error.
   */
  preempt(pod: Pod, filteredNodeStatuses: NodeToStatusMap): PreemptOutcome {
    const nominated = pod.status?.nominatedNodeName ?? '';
    const [eligible, msg] = this.impl.podEligibleToPreemptOthers(
      pod,
      filteredNodeStatuses.get(nominated) ?? null,
    );
    if (!eligible) return { status: new Status(Code.Unschedulable, [msg]) };

    const found = this.findCandidates(pod, filteredNodeStatuses);
    if (found.error && found.candidates.length === 0) return { status: Status.error(found.error) };
    if (found.candidates.length === 0) {
      // From 1.32 the message counts every node, those without a status as "not helpful".
      const countsAll = this.handle.features.behaviour.nodeToStatusCountsAbsentNodes;
      if (countsAll) found.nodeStatuses.absentNodesStatus = Status.unresolvable(MSG_PREEMPTION_NOT_HELPFUL);
      const numNodes = countsAll ? this.handle.snapshot().list().length : found.nodeStatuses.size;
      const message = fitErrorMessage(numNodes, { nodeToStatusMap: found.nodeStatuses });
      return { result: { candidates: [] }, status: new Status(Code.Unschedulable, [message]) };
    }

    const best = this.selectCandidate(found.candidates);
    if (!best || best.nodeName === '')
      return { status: new Status(Code.Unschedulable, [MSG_NO_CANDIDATE_NODE]) };
    // From 1.37 success says where the pod would go and at what cost (it shows in the FitError).
    const status = this.handle.features.behaviour.preemptionReportsPlacement
      ? new Status(Code.Success, [
          `found a potential placement for pod on node ${best.nodeName}, preempting ${best.victims.length} victims`,
        ])
      : null;
    return {
      result: { nominatedNodeName: best.nodeName, victims: best.victims, candidates: found.candidates },
      status,
    };
  }

  findCandidates(
    pod: Pod,
    filteredNodeStatuses: NodeToStatusMap,
  ): { candidates: PreemptionCandidate[]; nodeStatuses: NodeToStatusMap; error?: string } {
    const allNodes = this.handle.snapshot().list();
    if (allNodes.length === 0)
      return { candidates: [], nodeStatuses: new NodeToStatusMap(), error: 'no nodes available' };
    const { potentialNodes, unresolvableStatuses } = nodesWherePreemptionMightHelp(
      allNodes,
      filteredNodeStatuses,
      this.handle.features.behaviour.preFilterRejectionMarksAllNodesUnresolvable,
    );
    if (potentialNodes.length === 0) return { candidates: [], nodeStatuses: unresolvableStatuses };

    const pdbs = this.handle.objects.podDisruptionBudgets.list();
    const [offset, numCandidates] = this.impl.getOffsetAndNumCandidates(potentialNodes.length);
    const dry = this.dryRunPreemption(pod, potentialNodes, pdbs, offset, numCandidates);
    for (const [name, s] of unresolvableStatuses) dry.nodeStatuses.set(name, s);
    return dry;
  }

  /**
   * Runs victim selection on clones of the potential nodes, starting at `offset` and wrapping
   * around, until `numCandidates` candidates (at least one without PDB violations) are found.
   * Candidates without PDB violations come first in the result.
   */
  dryRunPreemption(
    pod: Pod,
    potentialNodes: readonly NodeInfo[],
    pdbs: readonly PodDisruptionBudget[],
    offset: number,
    numCandidates: number,
  ): { candidates: PreemptionCandidate[]; nodeStatuses: NodeToStatusMap; error?: string } {
    const nonViolating: PreemptionCandidate[] = [];
    const violating: PreemptionCandidate[] = [];
    const nodeStatuses = new NodeToStatusMap();
    const errors: string[] = [];
    const n = potentialNodes.length;
    for (let i = 0; i < n; i++) {
      const nodeInfoCopy = potentialNodes[(offset + i) % n].clone();
      const stateCopy = this.state.clone();
      const nodeName = nodeInfoCopy.name;
      const sel = this.impl.selectVictimsOnNode(stateCopy, pod, nodeInfoCopy, pdbs);
      let status = sel.status;
      if (status === null || status.code === Code.Success) {
        if (sel.victims.length > 0) {
          const c: PreemptionCandidate = {
            nodeName,
            victims: sel.victims,
            numPDBViolations: sel.numPDBViolations,
          };
          // Upstream's candidate lists hold at most numCandidates entries each.
          const list = sel.numPDBViolations === 0 ? nonViolating : violating;
          if (list.length < numCandidates) list.push(c);
          if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
          continue;
        }
        status = Status.error(`expected at least one victim pod on node "${nodeName}"`);
      }
      if (status.code === Code.Error) errors.push(status.message());
      nodeStatuses.set(nodeName, status);
    }
    const candidates = [...nonViolating, ...violating];
    return errors.length > 0
      ? { candidates, nodeStatuses, error: aggregateErrors(errors) }
      : { candidates, nodeStatuses };
  }

  selectCandidate(candidates: readonly PreemptionCandidate[]): PreemptionCandidate | undefined {
    if (candidates.length === 0) return undefined;
    if (candidates.length === 1) return candidates[0];
    const chosen = pickOneNodeForPreemption(candidates);
    return candidates.find((c) => c.nodeName === chosen) ?? candidates[0];
  }
}

/** utilerrors.NewAggregate's message: one error as is, several as "[e1, e2]". */
function aggregateErrors(errors: string[]): string {
  return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

/**
 * The statuses of a PreFilter rejection: the runtime gives every node the same Status object.
 * (Filter plugins build one status per failing node.)
 */
export function isPreFilterRejection(allNodes: readonly NodeInfo[], statuses: NodeToStatusMap): boolean {
  if (statuses.size === 0 || statuses.size !== allNodes.length || allNodes.length < 2) return false;
  const first = statuses.get(allNodes[0].name);
  if (!first) return false;
  for (const ni of allNodes) if (statuses.get(ni.name) !== first) return false;
  return true;
}

/**
 * Splits the nodes into those where removing pods might help (any status other than
 * UnschedulableAndUnresolvable) and the others, which get "Preemption is not helpful".
 * v1.26 (`preFilterRejectionMarksAllNodesUnresolvable` off) ran PostFilter with no per-node
 * statuses after a PreFilter rejection, so every node was tried; from 1.27 the PreFilter
 * status counts for every node. A node with no status is a potential node.
 */
export function nodesWherePreemptionMightHelp(
  nodes: readonly NodeInfo[],
  statuses: NodeToStatusMap,
  preFilterRejectionMarksAllNodesUnresolvable: boolean,
): { potentialNodes: NodeInfo[]; unresolvableStatuses: NodeToStatusMap } {
  const ignoreStatuses =
    !preFilterRejectionMarksAllNodesUnresolvable && isPreFilterRejection(nodes, statuses);
  const potentialNodes: NodeInfo[] = [];
  const unresolvableStatuses = new NodeToStatusMap();
  for (const ni of nodes) {
    const s = ignoreStatuses ? undefined : (statuses.get(ni.name) ?? statuses.absentNodesStatus);
    if (s !== undefined && s.code === Code.UnschedulableAndUnresolvable) {
      unresolvableStatuses.set(ni.name, Status.unresolvable(MSG_PREEMPTION_NOT_HELPFUL));
      continue;
    }
    potentialNodes.push(ni);
  }
  return { potentialNodes, unresolvableStatuses };
}

const PRIORITY_OFFSET = 2n ** 31n;

/**
 * Picks the node to preempt on, by upstream's criteria in order: fewest PDB violations; lowest
 * priority of the first victim (upstream reads victims[0], which is the most important of the
 * PDB-violating victims when there are any); lowest sum of priorities each offset by 2^31
 * (BigInt, exact); fewest victims; latest earliest start time among the highest-priority
 * victims. Remaining ties go to the smallest node name (upstream: Go map order).
 */
export function pickOneNodeForPreemption(candidates: readonly PreemptionCandidate[]): string {
  if (candidates.length === 0) return '';
  let nodes = [...candidates].sort((a, b) =>
    a.nodeName < b.nodeName ? -1 : a.nodeName > b.nodeName ? 1 : 0,
  );

  nodes = keepMinimal(nodes, (c) => BigInt(c.numPDBViolations));
  if (nodes.length === 1) return nodes[0].nodeName;
  nodes = keepMinimal(nodes, (c) => BigInt(podPriority(c.victims[0])));
  if (nodes.length === 1) return nodes[0].nodeName;
  nodes = keepMinimal(nodes, (c) => {
    let sum = 0n;
    for (const v of c.victims) sum += BigInt(podPriority(v)) + PRIORITY_OFFSET;
    return sum;
  });
  if (nodes.length === 1) return nodes[0].nodeName;
  nodes = keepMinimal(nodes, (c) => BigInt(c.victims.length));
  if (nodes.length === 1) return nodes[0].nodeName;

  let chosen = nodes[0];
  let latest = earliestStartTimeOfHighestPriority(chosen.victims);
  if (latest === undefined) return chosen.nodeName;
  for (let i = 1; i < nodes.length; i++) {
    const t = earliestStartTimeOfHighestPriority(nodes[i].victims);
    if (t !== undefined && t > latest) {
      latest = t;
      chosen = nodes[i];
    }
  }
  return chosen.nodeName;
}

/** The entries with the smallest key, in their input order. */
function keepMinimal<T>(items: readonly T[], key: (item: T) => bigint): T[] {
  let min: bigint | undefined;
  let out: T[] = [];
  for (const it of items) {
    const k = key(it);
    if (min === undefined || k < min) {
      min = k;
      out = [it];
    } else if (k === min) {
      out.push(it);
    }
  }
  return out;
}
