/**
 * The compact explanation is a faithful digest of the full one, and the full one is recomputed
 * exactly on demand by replaying the run with `explainPods`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { KubeObject } from '@schedlab/k8s';
import { compareStrings } from '../framework/fit-error';
import { TOP_SCORED_NODES, type AttemptExplanation } from '../explanation';
import { simulate, type SimulateOptions } from '../simulation/simulate';
import type { AttemptSummary, PodSchedulingResult } from '../simulation/results';
import { explainCluster } from './explain-cluster';

/** The compact explanation a full attempt record implies. */
function digestOf(full: AttemptSummary): AttemptExplanation {
  const groups = new Map<string, { plugin: string; code: string; reasons: string[]; nodes: number }>();
  for (const [node, reasons] of Object.entries(full.filterReasons)) {
    const key = JSON.stringify([full.filterPlugin[node], full.filterCode[node], reasons]);
    const g = groups.get(key) ?? {
      plugin: full.filterPlugin[node],
      code: full.filterCode[node],
      reasons,
      nodes: 0,
    };
    g.nodes++;
    groups.set(key, g);
  }
  const ranked = Object.keys(full.scores).sort(
    (a, b) => full.scores[b] - full.scores[a] || compareStrings(a, b),
  );
  return {
    nodesEvaluated: full.feasible.length + Object.keys(full.filterReasons).length,
    nodesFeasible: full.feasible.length,
    filterFailures: [...groups.values()].sort(
      (a, b) =>
        b.nodes - a.nodes ||
        compareStrings(a.plugin, b.plugin) ||
        compareStrings(a.reasons.join(', '), b.reasons.join(', ')),
    ),
    topScores: ranked.slice(0, TOP_SCORED_NODES).map((node) => ({
      node,
      total: full.scores[node],
      plugins: Object.keys(full.pluginScores).map((plugin) => ({
        plugin,
        raw: full.rawScores[plugin][node],
        weighted: full.pluginScores[plugin][node],
      })),
    })),
    maxScoreNodes: full.maxScoreNodes.length,
  };
}

/** Plugin order inside a node's breakdown is the profile's; compare as sets. */
function normalized(e: AttemptExplanation | undefined): unknown {
  if (!e) return e;
  return {
    ...e,
    topScores: e.topScores.map((s) => ({
      ...s,
      plugins: [...s.plugins].sort((a, b) => compareStrings(a.plugin, b.plugin)),
    })),
  };
}

function expectDigest(compact: PodSchedulingResult, full: PodSchedulingResult): void {
  const expected = digestOf(full);
  // The chosen node is kept even when it is not among the best totals (random tie-break).
  if (full.node && !expected.topScores.some((s) => s.node === full.node) && expected.topScores.length > 0) {
    expect(compact.explanation!.topScores.map((s) => s.node)).toContain(full.node);
    compact = {
      ...compact,
      explanation: {
        ...compact.explanation!,
        topScores: compact.explanation!.topScores.filter((s) => s.node !== full.node),
      },
    };
  }
  expect(normalized(compact.explanation)).toEqual(normalized(expected));
  if (full.firstAttempt)
    expect(normalized(compact.firstAttempt!.explanation)).toEqual(normalized(digestOf(full.firstAttempt)));
  if (full.feasible.length === 0) {
    // An unschedulable attempt keeps every node's verdict even at the compact level.
    expect(compact.filterReasons).toEqual(full.filterReasons);
    expect(compact.filterPlugin).toEqual(full.filterPlugin);
  }
}

function goldenInputs(): { name: string; items: KubeObject[]; options: SimulateOptions }[] {
  const root = path.resolve(__dirname, '../../../../../shared/conformance');
  const out: { name: string; items: KubeObject[]; options: SimulateOptions }[] = [];
  for (const family of ['cases', 'scale', 'storage']) {
    const dir = path.join(root, family);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .slice(0, 12)) {
      const c = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      out.push({
        name: `${family}/${file}`,
        items: c.input.items,
        options: {
          compatibilityVersion: '1.26',
          tieBreak: 'lowest-node-name',
          percentageOfNodesToScore: c.config.percentageOfNodesToScore ?? 0,
          featureGates: c.config.featureGates ?? {},
        },
      });
    }
  }
  return out;
}

describe('compact explanations', () => {
  it('digest the full record of every attempt (synthetic cluster with preemption, random tie-break)', () => {
    const options = { compatibilityVersion: '1.26', seed: 7 };
    const full = simulate(explainCluster(), { ...options, explain: 'full' });
    const compact = simulate(explainCluster(), options);
    expect(full.summary.preempted).toBeGreaterThan(0);
    full.results.forEach((f, i) => expectDigest(compact.results[i], f));
  });

  it.each(goldenInputs().map((g) => [g.name, g] as const))(
    'digest the full record on golden input %s',
    (_name, g) => {
      const full = simulate(g.items, { ...g.options, explain: 'full' });
      const compact = simulate(g.items, g.options);
      full.results.forEach((f, i) => expectDigest(compact.results[i], f));
    },
  );
});

describe('full detail on demand', () => {
  it.each(goldenInputs().map((g) => [g.name, g] as const))(
    'a replay up to one pod recomputes its full record exactly (%s)',
    (_name, g) => {
      const full = simulate(g.items, { ...g.options, explain: 'full' });
      // The last pod sees every earlier decision; a middle one proves the replay stops there.
      for (const target of [
        full.results[full.results.length - 1],
        full.results[Math.floor(full.results.length / 2)],
      ]) {
        const replay = simulate(g.items, {
          ...g.options,
          explainPods: new Set([target.pod]),
          stopAfterPod: target.pod,
        });
        expect(replay.results[replay.results.length - 1].pod).toBe(target.pod);
        const { explanation: _a, ...onDemand } = replay.results[replay.results.length - 1];
        const { explanation: _b, ...recorded } = target;
        expect(onDemand).toEqual(recorded);
      }
    },
  );

  it('is exact with the random tie-break too (the seed drives the same draws)', () => {
    const options = { compatibilityVersion: '1.26', seed: 11 };
    const full = simulate(explainCluster(), { ...options, explain: 'full' });
    for (const target of full.results.filter((_, i) => i % 7 === 3)) {
      const replay = simulate(explainCluster(), {
        ...options,
        explainPods: new Set([target.pod]),
        stopAfterPod: target.pod,
      });
      const last = replay.results[replay.results.length - 1];
      expect({ ...last, explanation: undefined }).toEqual({ ...target, explanation: undefined });
    }
  });
});
