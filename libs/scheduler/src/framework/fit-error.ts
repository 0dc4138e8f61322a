/**
 * The "0/N nodes are available: …" text kube-scheduler reports for an unschedulable pod
 * (upstream framework.FitError), built from the per-node statuses of one attempt.
 */
import type { NodeToStatusMap } from './interface';

export interface Diagnosis {
  nodeToStatusMap: NodeToStatusMap;
  /** Set when a PreFilter plugin rejected the pod: then no per-node histogram is printed. */
  preFilterMsg?: string;
  /** PostFilter's message (e.g. from preemption), appended after the filter reasons. */
  postFilterMsg?: string;
  /** From 1.29 PostFilter's message is appended without a closing period. */
  postFilterMsgWithoutPeriod?: boolean;
}

/**
 * "<count> <reason>" for every reason of every failed node, sorted as strings. Nodes without an
 * entry count under the map's absent-node status when it has one (upstream from 1.32).
 */
export function reasonHistogram(statuses: NodeToStatusMap, numAllNodes = statuses.size): string[] {
  const counts = new Map<string, number>();
  for (const status of statuses.values()) {
    for (const r of status.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  }
  const absent = numAllNodes - statuses.size;
  if (statuses.absentNodesStatus && absent > 0) {
    for (const r of statuses.absentNodesStatus.reasons) counts.set(r, (counts.get(r) ?? 0) + absent);
  }
  return [...counts].map(([r, n]) => `${n} ${r}`).sort(compareStrings);
}

/** Go's sort.Strings order: byte-wise, which for these ASCII strings is UTF-16 code unit order. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg) {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const hist = reasonHistogram(d.nodeToStatusMap, numAllNodes);
    if (hist.length > 0) msg += ` ${hist.join(', ')}.`;
  }
  if (d.postFilterMsg) msg += d.postFilterMsgWithoutPeriod ? ` ${d.postFilterMsg}` : ` ${d.postFilterMsg}.`;
  return msg;
}
