/** The explain level must change what is recorded, never what is decided. */
import { simulate } from '../simulation/simulate';
import { explainCluster } from './explain-cluster';

describe("explain: 'summary'", () => {
  const options = { compatibilityVersion: '1.26', seed: 7 };
  const full = simulate(explainCluster(), { ...options, explain: 'full' });
  const summary = simulate(explainCluster(), { ...options, explain: 'summary' });
  const compact = simulate(explainCluster(), options);

  it('places, preempts and reports exactly as full explanations do', () => {
    expect(summary.summary).toEqual(full.summary);
    expect(full.summary.preempted).toBeGreaterThan(0);
    const decisions = (rs: typeof full.results) =>
      rs.map((r) => [r.pod, r.outcome, r.node, r.victims, r.message, r.evaluated]);
    expect(decisions(summary.results)).toEqual(decisions(full.results));
    expect(decisions(compact.results)).toEqual(decisions(full.results));
    expect(compact.summary).toEqual(full.summary);
  });

  it("keeps only the selected node's total score and no per-node records", () => {
    const scheduled = summary.results.filter((r) => r.outcome === 'scheduled' && r.attempts === 1);
    expect(scheduled.length).toBeGreaterThan(0);
    for (const r of scheduled) {
      const fullResult = full.results.find((f) => f.pod === r.pod)!;
      expect(r.scores).toEqual({ [r.node!]: fullResult.scores[r.node!] });
      expect(r.feasible).toEqual([]);
      expect(r.pluginScores).toEqual({});
      expect(r.filterReasons).toEqual({});
      expect(r.explanation).toBeUndefined();
    }
  });
});
