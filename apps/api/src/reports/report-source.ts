/** Rebuilds a run's report from what is stored: the snapshot's objects, placements and explanations. */
import type { KubeObject } from '@schedlab/k8s';
import { buildRunReport, type ReportRun, type ReportableResult } from '@schedlab/report';
import { buildClusterState, type DeviceClassSummary } from '@schedlab/scheduler';

export interface StoredPlacement {
  podKey: string;
  namespace: string;
  name: string;
  node: string | null;
  status: string;
  priority: number;
  message: string | null;
  nominatedNode: string | null;
  victims: unknown;
}

export interface StoredRunForReport {
  label: string;
  engineVersion: string;
  /** The snapshot's objects, as the worker simulated them. */
  items: readonly KubeObject[];
  /** In the engine's order (by ordinal). */
  placements: readonly StoredPlacement[];
  /** namespace/name → the engine's PodSchedulingResult as the worker stored it. */
  explanations: ReadonlyMap<string, Record<string, unknown>>;
  /** The stored device summary (RunResult summary's `devices`), for the report's devices section. */
  devices?: readonly DeviceClassSummary[] | null;
}

/** The placement alone, for pods without a stored explanation: no per-node breakdown. */
function resultOfPlacement(p: StoredPlacement): ReportableResult {
  const result: ReportableResult = {
    pod: p.podKey,
    outcome: p.status as ReportableResult['outcome'],
    node: p.node,
    priority: p.priority,
  };
  if (p.message) result.message = p.message;
  if (p.nominatedNode) result.nominatedNode = p.nominatedNode;
  if (Array.isArray(p.victims)) result.victims = p.victims.map(String);
  return result;
}

interface CompactExplanation {
  topScores?: { node: string; total: number; plugins: { plugin: string; weighted: number }[] }[];
}

/**
 * Runs store compact explanations: per-node scores only for the best-scored nodes
 * (`explanation.topScores`). The report's score table is drawn from those.
 */
function withTopScores(stored: Record<string, unknown>): ReportableResult {
  const top = (stored.explanation as CompactExplanation | undefined)?.topScores;
  if (!top?.length || stored.pluginScores !== undefined) return stored as unknown as ReportableResult;
  const scores: Record<string, number> = {};
  const pluginScores: Record<string, Record<string, number>> = {};
  for (const scored of top) {
    scores[scored.node] = scored.total;
    for (const p of scored.plugins) (pluginScores[p.plugin] ??= {})[scored.node] = p.weighted;
  }
  return { ...(stored as unknown as ReportableResult), scores, pluginScores };
}

export function reportRunOfStored(run: StoredRunForReport): ReportRun {
  const state = buildClusterState(run.items as KubeObject[]);
  const results = run.placements.map((p) => {
    const explained = run.explanations.get(`${p.namespace}/${p.name}`);
    return explained ? withTopScores(explained) : resultOfPlacement(p);
  });
  return buildRunReport({
    label: run.label,
    nodes: state.nodes,
    pods: [...state.runningPods, ...state.pendingPods],
    result: {
      compatibilityVersion: run.engineVersion,
      results,
      ...(run.devices ? { devices: run.devices } : {}),
    },
  });
}
