/**
 * Replays one golden case through the engine (and, for analysis families, through the same
 * analysis code the API and worker run) and reports the first field that differs per result.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import { capacity, nodeLoss } from '@schedlab/scenarios';
import { SimulateOptions, nodeTreeOrder, simulate } from '@schedlab/scheduler';
import { GoldenCase, compatibilityVersionOf, familyOf } from './case';
import { Difference, firstDifference } from './compare';
import { projectResult } from './project';

export interface Mismatch {
  /** "ns/name" of the pod, or the analysis name for analysis cases. */
  subject: string;
  difference: Difference;
}

export interface CaseReport {
  name: string;
  family: string;
  exact: boolean;
  /** Results compared (pods, or 1 for an analysis). */
  compared: number;
  mismatches: Mismatch[];
  /** Set when the engine threw instead of producing results. */
  error?: string;
}

/** The replay rules of the golden README as simulation options. */
export function optionsFor(c: GoldenCase): SimulateOptions {
  return {
    compatibilityVersion: compatibilityVersionOf(c),
    featureGates: c.config.featureGates ?? {},
    tieBreak: c.config.tieBreak === 'lowest-node-name' ? 'lowest-node-name' : 'random',
    percentageOfNodesToScore: c.config.percentageOfNodesToScore ?? 0,
    schedulerConfiguration: c.config.schedulerConfiguration,
    startTimeBase: '2030-01-01T00:00:00Z',
    // Golden results list every node's verdict and every plugin's score.
    explain: 'full',
  };
}

function compareList(
  subjectOf: (e: Record<string, unknown>) => string,
  expected: unknown[],
  actual: unknown[],
): Mismatch[] {
  const out: Mismatch[] = [];
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i] as Record<string, unknown> | undefined;
    const a = actual[i] as Record<string, unknown> | undefined;
    const d = firstDifference(e, a);
    if (d) out.push({ subject: subjectOf(e ?? a ?? {}) || `#${i}`, difference: d });
  }
  return out;
}

const podOf = (e: Record<string, unknown>): string => String(e.pod ?? '');

function replayScheduling(c: GoldenCase): Mismatch[] {
  const items = c.input.items as KubeObject[];
  const family = familyOf(c);
  const mismatches: Mismatch[] = [];
  if (c.config.nodeOrder) {
    const order = nodeTreeOrder(items.filter((i) => i.kind === 'Node') as never).map((n) => n.metadata?.name);
    const d = firstDifference(c.config.nodeOrder, order, 'nodeOrder');
    if (d) mismatches.push({ subject: 'cluster', difference: d });
  }
  const result = simulate(items, optionsFor(c));
  const actual = result.results.map((r) => projectResult(r, family));
  return mismatches.concat(compareList(podOf, c.expected as unknown[], actual));
}

function replayCapacity(c: GoldenCase): Mismatch[] {
  const a = c.analysis as unknown as { podTemplate: Pod; maxReplicas: number };
  const actual = capacity(
    c.input.items as KubeObject[],
    { podTemplate: a.podTemplate, maxReplicas: a.maxReplicas },
    optionsFor(c),
  );
  const d = firstDifference(c.expected, actual);
  return d ? [{ subject: 'capacity', difference: d }] : [];
}

function replayNodeLoss(c: GoldenCase): Mismatch[] {
  const a = c.analysis as unknown as { nodes: string[] };
  const out = nodeLoss(c.input.items as KubeObject[], a.nodes, optionsFor(c));
  const mismatches = compareList(
    podOf,
    c.expected as unknown[],
    out.results.map((r) => projectResult(r, 'node-loss')),
  );
  const d = firstDifference(c.summary, out.summary, 'summary');
  if (d) mismatches.push({ subject: 'summary', difference: d });
  return mismatches;
}

export function replayCase(c: GoldenCase): CaseReport {
  const family = familyOf(c);
  const compared = Array.isArray(c.expected) ? c.expected.length : 1;
  try {
    const mismatches =
      family === 'capacity'
        ? replayCapacity(c)
        : family === 'node-loss'
          ? replayNodeLoss(c)
          : replayScheduling(c);
    return { name: c.name, family, exact: mismatches.length === 0, compared, mismatches };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { name: c.name, family, exact: false, compared, mismatches: [], error: message };
  }
}
