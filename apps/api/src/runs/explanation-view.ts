/** One node's part of a pod's full explanation (`?node=NAME`). */

interface AttemptFields {
  feasible?: string[];
  scores?: Record<string, number>;
  pluginScores?: Record<string, Record<string, number>>;
  rawScores?: Record<string, Record<string, number>>;
  filterReasons?: Record<string, string[]>;
  filterPlugin?: Record<string, string>;
  filterCode?: Record<string, string>;
  preFilterRejection?: { plugin: string; message: string };
}

export type NodeVerdict =
  | { status: 'filtered'; plugin: string; code: string; reasons: string[] }
  | {
      status: 'feasible';
      total: number;
      plugins: { plugin: string; raw: number | null; weighted: number | null }[];
    }
  /** Filter never ran on it: percentageOfNodesToScore stopped the search first, or PreFilter rejected the pod. */
  | { status: 'not-evaluated'; preFilterRejection?: { plugin: string; message: string } };

export function nodeVerdict(attempt: AttemptFields, node: string): NodeVerdict {
  const reasons = attempt.filterReasons?.[node];
  if (reasons) {
    return {
      status: 'filtered',
      plugin: attempt.filterPlugin?.[node] ?? '',
      code: attempt.filterCode?.[node] ?? '',
      reasons,
    };
  }
  if (attempt.feasible?.includes(node)) {
    const plugins = Object.keys(attempt.pluginScores ?? {}).map((plugin) => ({
      plugin,
      raw: attempt.rawScores?.[plugin]?.[node] ?? null,
      weighted: attempt.pluginScores?.[plugin]?.[node] ?? null,
    }));
    return { status: 'feasible', total: attempt.scores?.[node] ?? 0, plugins };
  }
  return attempt.preFilterRejection
    ? { status: 'not-evaluated', preFilterRejection: attempt.preFilterRejection }
    : { status: 'not-evaluated' };
}

/** The pod's outcome and what the node's verdict was in each attempt (before and after preemption). */
export function nodeExplanation(result: Record<string, unknown>, node: string) {
  const first = result.firstAttempt as AttemptFields | undefined;
  return {
    pod: result.pod,
    node,
    outcome: result.outcome,
    selectedNode: result.node ?? null,
    selected: result.node === node,
    verdict: nodeVerdict(result as AttemptFields, node),
    ...(first ? { firstAttemptVerdict: nodeVerdict(first, node) } : {}),
  };
}
