/**
 * Counts remembered between scheduling cycles must equal a fresh count after any sequence of pods
 * bound and evicted: PreFilter and PreScore states computed with a long-lived cache are compared
 * with states computed from scratch, step by step.
 */
import type { Pod } from '@schedlab/k8s';
import { Snapshot } from '../../../../backend/cache/snapshot';
import { PodInfo } from '../../../types';
import { makeNode, makePod } from '../../../../testing/builders';
import { MatchingPodCounts, SpreadOptions, compileConstraints } from '../common';
import { computePreFilterState } from '../filtering';
import { computePreScoreState } from '../scoring';

const opts: SpreadOptions = {
  minDomains: true,
  nodeInclusionPolicy: true,
  matchLabelKeys: true,
  emptySelectorCountsNothing: true,
  matchLabelKeysKeepsNilSelector: true,
};

function cluster(): Snapshot {
  const nodes = Array.from({ length: 30 }, (_, i) =>
    makeNode({
      name: `n${String(i).padStart(2, '0')}`,
      // A pool label for probes' node selectors. Every 7th node has no zone: it counts only where
      // the keys are not all required. Two are labelled with an empty zone, which counts under the
      // same "" as a missing one.
      labels: {
        pool: i % 4 === 0 ? 'a' : 'b',
        ...(i % 7 === 6 ? {} : { 'topology.kubernetes.io/zone': i === 10 || i === 22 ? '' : `z${i % 3}` }),
      },
    }),
  );
  // Pods already running when the first selector is remembered (its first count comes from them).
  // Some carry a probe's labels but count for none of its selectors: terminating, or in another
  // namespace.
  const running = Array.from({ length: 60 }, (_, i) =>
    terminatingEvery(
      9,
      i,
      makePod({
        name: `r-${i}`,
        uid: `uid-r-${i}`,
        namespace: i % 11 === 4 ? 'other' : 'default',
        labels: { app: `a${i % 5}` },
        nodeName: nodes[(i * 7) % nodes.length].metadata!.name,
      }),
    ),
  );
  return new Snapshot(nodes, running);
}

/** Every `n`th pod (by `i`) given a deletionTimestamp. */
function terminatingEvery(n: number, i: number, pod: Pod): Pod {
  if (i % n !== n - 1) return pod;
  return { ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2026-11-28T00:00:00Z' } };
}

/**
 * Selectors indexed by a required label (alone, twice, or with a requirement no pod meets), and
 * ones that are not (several values, Exists).
 */
function selectorFor(app: string, step: number) {
  if (step % 5 === 0) return { matchLabels: { app } };
  if (step % 5 === 1) return { matchExpressions: [{ key: 'app', operator: 'In', values: [app, 'a9'] }] };
  if (step % 5 === 2) return { matchExpressions: [{ key: 'app', operator: 'Exists' }] };
  const other = step % 5 === 3 ? app : 'a9';
  return { matchLabels: { app }, matchExpressions: [{ key: 'app', operator: 'In', values: [other] }] };
}

function spreadPod(name: string, app: string, action: 'DoNotSchedule' | 'ScheduleAnyway', step: number) {
  const labelSelector = selectorFor(app, step);
  return makePod({
    name,
    labels: { app },
    spec: {
      containers: [{ name: 'c', image: 'pause' }],
      // Some probes select a pool: the node affinity policy then leaves nodes out of the counts.
      ...(step % 4 === 1 ? { nodeSelector: { pool: 'a' } } : {}),
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: action, labelSelector },
        { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: action, labelSelector },
      ],
    },
  });
}

describe('MatchingPodCounts', () => {
  it('gives the same PreFilter and PreScore states as counting afresh, after pods are bound and evicted', () => {
    const snapshot = cluster();
    const nodes = snapshot.list();
    const cache = new MatchingPodCounts(opts, snapshot);
    const bound: { uid: string; node: string }[] = [];
    let seed = 17;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let step = 0; step < 120; step++) {
      // New apps keep appearing, so selectors are first remembered at every stage of the run.
      const app = `a${next(3 + Math.floor(step / 10))}`;
      const probe = spreadPod(
        `probe-${step}`,
        app,
        step % 2 === 0 ? 'DoNotSchedule' : 'ScheduleAnyway',
        step >> 1,
      );
      const constraints = compileConstraints(
        probe.spec!.topologySpreadConstraints!,
        probe.metadata?.labels,
        step % 2 === 0 ? 'DoNotSchedule' : 'ScheduleAnyway',
        opts,
      );
      if (step % 2 === 0) {
        const cached = computePreFilterState(probe, constraints, nodes, opts, cache);
        const fresh = computePreFilterState(probe, constraints, nodes, opts);
        expect([...cached.tpPairToMatchNum].map(([k, m]) => [k, [...m]])).toEqual(
          [...fresh.tpPairToMatchNum].map(([k, m]) => [k, [...m]]),
        );
      } else {
        // Half the nodes; some steps also none of zone z2's, so its pods count for no pair.
        const filtered = nodes.filter(
          (_, i) => i % 2 === (step % 4) >> 1 && (step % 16 < 8 || i % 7 === 6 || i % 3 !== 2),
        );
        const domains = (key: string) => snapshot.topologyDomains(key);
        for (const requireAll of [true, false]) {
          const fresh = computePreScoreState(probe, constraints, filtered, nodes, requireAll, opts);
          const cached = computePreScoreState(probe, constraints, filtered, nodes, requireAll, opts, cache);
          // With the snapshot's domains, values and counts are read by node index.
          const byIndex = computePreScoreState(
            probe,
            constraints,
            filtered,
            nodes,
            requireAll,
            opts,
            cache,
            domains,
          );
          for (const state of [cached, byIndex]) {
            expect([...state.pairCounts].map(([k, m]) => [k, [...m]])).toEqual(
              [...fresh.pairCounts].map(([k, m]) => [k, [...m]]),
            );
          }
        }
      }
      // Change the cluster: bind a pod of some app, sometimes evict one.
      const node = nodes[next(nodes.length)].name;
      const pod = terminatingEvery(
        5,
        step,
        makePod({ name: `p-${step}`, uid: `uid-p-${step}`, labels: { app: `a${next(3)}` }, nodeName: node }),
      );
      snapshot.addPod(new PodInfo(pod), node);
      bound.push({ uid: `uid-p-${step}`, node });
      if (step % 3 === 2) {
        const [victim] = bound.splice(next(bound.length), 1);
        expect(snapshot.removePod(victim.uid, victim.node)).toBe(true);
      }
    }
  });
});
