/** Builds a report run from what `simulate` consumed (nodes, pod objects) and what it returned. */
import type { Node, Pod } from '@schedlab/k8s';
import { claimDevicesOf, type DeviceClassSummary, type PodSchedulingResult } from '@schedlab/scheduler';
import { podKeyOf, zoneOf } from '@schedlab/k8s';
import { nodeUtilization } from '@schedlab/scenarios';
import type { ReportFilterFailure, ReportNode, ReportNodeScore, ReportPod, ReportRun } from './report-input';

/**
 * The parts of a PodSchedulingResult a report reads. Stored runs may only have the placement
 * (pod, outcome, node, message…); the per-node explanation fields are then absent.
 */
export type ReportableResult = Pick<PodSchedulingResult, 'pod' | 'outcome' | 'node' | 'priority'> &
  Partial<
    Pick<
      PodSchedulingResult,
      | 'message'
      | 'error'
      | 'nominatedNode'
      | 'victims'
      | 'filterReasons'
      | 'filterPlugin'
      | 'scores'
      | 'pluginScores'
      | 'firstAttempt'
      | 'explanation'
      | 'claims'
    >
  >;

export interface RunReportSource {
  label: string;
  /** The cluster's nodes (e.g. `buildClusterState(objects).nodes`). */
  nodes: readonly Node[];
  /**
   * Every pod object the run knew: the running ones (with spec.nodeName) and the pending ones
   * the engine scheduled; their requests give each node's requested resources after the run.
   */
  pods: readonly Pod[];
  result: {
    compatibilityVersion: string;
    results: readonly ReportableResult[];
    /** The engine's device summary (SimulationResult.devices, or as a run stored it). */
    devices?: readonly DeviceClassSummary[];
  };
  /** Scored nodes kept per pod (best first, the chosen node always); default 10. */
  maxScoresPerPod?: number;
}

/**
 * Scored nodes kept per pod: the best ones (and the chosen node) explain a placement; keeping all
 * of them made reports grow with pods × nodes (100 nodes × 1,000 pods: 18 MB).
 */
export const DEFAULT_MAX_SCORES_PER_POD = 10;

function bestScores(all: ReportNodeScore[], chosen: string | null, max: number): ReportNodeScore[] {
  if (all.length <= max) return all;
  const kept = all.slice(0, max);
  const chosenScore = chosen === null ? undefined : all.find((s) => s.node === chosen);
  if (chosenScore && !kept.includes(chosenScore)) kept[max - 1] = chosenScore;
  return kept;
}

/**
 * Filter rows: one per node where the record has every node's verdict (unschedulable attempts,
 * full records), else one per group of the compact explanation ("12 nodes").
 */
function filterRows(r: ReportableResult): { rows: ReportFilterFailure[]; failedNodes: number } {
  const perNode = Object.entries(r.filterReasons ?? {});
  const groups = r.explanation?.filterFailures ?? [];
  if (perNode.length > 0 || groups.length === 0) {
    const rows = perNode
      .map(([node, reasons]) => ({ node, plugin: r.filterPlugin?.[node] ?? '', reasons: [...reasons] }))
      .sort((a, b) => a.node.localeCompare(b.node));
    return { rows, failedNodes: rows.length };
  }
  const rows = groups.map((g) => ({
    node: `${g.nodes} node${g.nodes === 1 ? '' : 's'}`,
    plugin: g.plugin,
    reasons: [...g.reasons],
  }));
  return { rows, failedNodes: groups.reduce((n, g) => n + g.nodes, 0) };
}

/** Scored nodes: every one where the record has them all, else the compact explanation's best. */
function scoreRows(r: ReportableResult): { rows: ReportNodeScore[]; scoredNodes: number } {
  const top = r.explanation?.topScores ?? [];
  if (Object.keys(r.scores ?? {}).length > 1 || top.length === 0) {
    const rows = Object.entries(r.scores ?? {}).map(([node, total]) => ({
      node,
      total,
      plugins: Object.fromEntries(
        Object.entries(r.pluginScores ?? {})
          .filter(([, byNode]) => node in byNode)
          .map(([plugin, byNode]) => [plugin, byNode[node]]),
      ),
    }));
    return { rows, scoredNodes: rows.length };
  }
  const rows = top.map((s) => ({
    node: s.node,
    total: s.total,
    plugins: Object.fromEntries(s.plugins.map((p) => [p.plugin, p.weighted])),
  }));
  return { rows, scoredNodes: r.explanation!.nodesFeasible };
}

export function reportPodOf(r: ReportableResult, maxScores = DEFAULT_MAX_SCORES_PER_POD): ReportPod {
  const filters = filterRows(r);
  const scores = scoreRows(r);
  const pod: ReportPod = {
    pod: r.pod,
    outcome: r.outcome,
    node: r.node,
    priority: r.priority,
    filters: filters.rows,
    failedNodes: filters.failedNodes,
    scoredNodes: scores.scoredNodes,
    scores: scores.rows.sort((a, b) => b.total - a.total || a.node.localeCompare(b.node)),
  };
  pod.scores = bestScores(pod.scores, r.node, maxScores);
  // Same choice as the CLI's placements: the failure that explains the pod is the first attempt's.
  const message = r.firstAttempt?.message ?? r.message ?? r.error;
  if (message) pod.message = message;
  if (r.nominatedNode) pod.nominatedNode = r.nominatedNode;
  if (r.victims?.length) pod.victims = [...r.victims];
  const devices = claimDevicesOf(r.claims);
  if (devices.length) pod.devices = devices;
  return pod;
}

/** Where every pod is once the run is over: running pods minus victims, plus the new bindings. */
function podsByNodeAfter(source: RunReportSource): Map<string, Pod[]> {
  const objects = new Map(source.pods.map((p) => [podKeyOf(p), p]));
  const evicted = new Set(source.result.results.flatMap((r) => r.victims ?? []));
  const bound = new Map<string, string>();
  for (const p of source.pods)
    if (p.spec?.nodeName && !evicted.has(podKeyOf(p))) bound.set(podKeyOf(p), p.spec.nodeName);
  for (const r of source.result.results) if (r.node) bound.set(r.pod, r.node);
  const byNode = new Map<string, Pod[]>();
  for (const [key, node] of bound) {
    // A pod without its object still counts on the node, with no requests.
    const pod = objects.get(key) ?? ({ metadata: { name: key } } as Pod);
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  return byNode;
}

export function buildRunReport(source: RunReportSource): ReportRun {
  const byNode = podsByNodeAfter(source);
  const nodes: ReportNode[] = source.nodes.map((n) => {
    const name = n.metadata?.name ?? '';
    const onNode = byNode.get(name) ?? [];
    const use = nodeUtilization(n, onNode);
    return {
      name,
      zone: zoneOf(n) ?? '',
      allocatable: { cpu: use.cpu.allocatable, memory: use.memory.allocatable },
      requested: { cpu: use.cpu.requested, memory: use.memory.requested },
      pods: onNode.map(podKeyOf).sort(),
      unschedulable: n.spec?.unschedulable === true,
    };
  });
  return {
    label: source.label,
    compatibilityVersion: source.result.compatibilityVersion,
    nodes,
    pods: source.result.results.map((r) => reportPodOf(r, source.maxScoresPerPod)),
    ...(source.result.devices?.length ? { devices: [...source.result.devices] } : {}),
  };
}
