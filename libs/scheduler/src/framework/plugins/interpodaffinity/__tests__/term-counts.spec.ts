// PreFilter's counts summed from the per-term counts kept across attempts must equal the counts
// of visiting every pod (upstream's way), whatever pods were bound and removed in between.
import { type PodAffinityTerm, SeededRandom } from '@schedlab/k8s';
import { CycleState } from '../../../cycle-state';
import type { NodeInfoLister } from '../../../interface';
import { PodInfo } from '../../../types';
import { PRE_FILTER_STATE_KEY, type PreFilterState } from '../filtering';
import { defaultArgs } from '../args';
import { InterPodAffinity } from '../plugin';
import { LayeredCounts, TopologyCounts } from '../topology-counts';
import { affinity, inReq, node, pod, setup, term } from './helpers';

const ZONES = ['z1', 'z2', 'z3'];
const KEYS = ['zone', 'kubernetes.io/hostname', 'rack'];
const COLORS = ['red', 'green', 'blue'];

function randomTerm(rng: SeededRandom): PodAffinityTerm {
  const extra: Partial<PodAffinityTerm> = rng.intn(4) === 0 ? { namespaces: ['default', 'other'] } : {};
  return term(KEYS[rng.intn(KEYS.length)], [inReq('color', COLORS[rng.intn(COLORS.length)])], extra);
}

function randomPod(rng: SeededRandom, nodeName?: string) {
  const terms = (n: number) => Array.from({ length: n }, () => randomTerm(rng));
  return pod(
    { color: COLORS[rng.intn(COLORS.length)] },
    {
      node: nodeName,
      ns: rng.intn(3) === 0 ? 'other' : 'default',
      affinity: affinity({ required: terms(rng.intn(3)), requiredAnti: terms(rng.intn(3)) }),
    },
  );
}

function counts(state: CycleState): Record<string, Record<string, number>> {
  const s = state.read<PreFilterState>(PRE_FILTER_STATE_KEY)!;
  return {
    existing: s.existingAntiAffinityCounts.toRecord(),
    affinity: s.affinityCounts.toRecord(),
    anti: s.antiAffinityCounts.toRecord(),
  };
}

describe('InterPodAffinity PreFilter counts kept across attempts', () => {
  it.each([1, 2, 3, 4, 5])('equal the visited counts through binds and removals (seed %i)', (seed) => {
    const rng = new SeededRandom(seed);
    // Nodes without a rack label: terms on it count nowhere.
    const nodes = Array.from({ length: 12 }, (_, i) =>
      node(`n${i}`, {
        zone: ZONES[i % 3],
        'kubernetes.io/hostname': `n${i}`,
        ...(i % 4 === 0 ? {} : { rack: `r${i % 5}` }),
      }),
    );
    const { plugin: kept, handle } = setup({ nodes, pods: [], version: '1.37' });
    const snapshot = handle.snapshot();
    // The same plugin over the same snapshot, without the change log: it visits every pod.
    const withoutLog: NodeInfoLister = {
      list: () => snapshot.list(),
      get: (n) => snapshot.get(n),
      havePodsWithAffinityList: () => snapshot.havePodsWithAffinityList(),
      havePodsWithRequiredAntiAffinityList: () => snapshot.havePodsWithRequiredAntiAffinityList(),
    };
    const visiting = new InterPodAffinity(
      defaultArgs(undefined),
      Object.assign(Object.create(handle), { snapshot: () => withoutLog }),
    );
    const bound: { uid: string; node: string }[] = [];
    for (let step = 0; step < 60; step++) {
      if (bound.length > 0 && rng.intn(4) === 0) {
        const [gone] = bound.splice(rng.intn(bound.length), 1);
        expect(snapshot.removePod(gone.uid, gone.node)).toBe(true);
      } else {
        const nodeName = `n${rng.intn(nodes.length)}`;
        const p = randomPod(rng, nodeName);
        snapshot.addPod(new PodInfo(p), nodeName);
        bound.push({ uid: p.metadata!.uid!, node: nodeName });
      }
      const incoming = randomPod(rng);
      const a = new CycleState();
      const b = new CycleState();
      const sa = kept.preFilter(a, incoming).status;
      const sb = visiting.preFilter(b, incoming).status;
      expect(sa?.code).toEqual(sb?.code);
      if (sa === null) expect(counts(a)).toEqual(counts(b));
      for (const ni of snapshot.list()) {
        expect(kept.filter(a, incoming, ni)?.reasons).toEqual(visiting.filter(b, incoming, ni)?.reasons);
      }
    }
  });
});

describe('LayeredCounts', () => {
  const base = () => {
    const c = new TopologyCounts();
    c.add('zone', 'z1', 2);
    c.add('zone', 'z2', 1);
    return c;
  };

  it('sums its bases and its own changes; a clone changes apart', () => {
    const freshness = { epoch: 0 };
    const view = new LayeredCounts([base(), base()], freshness);
    expect(view.toRecord()).toEqual({ 'zone=z1': 4, 'zone=z2': 2 });
    expect(view.size).toBe(2);
    const copy = view.clone();
    copy.addForNode({ zone: 'z2' }, 'zone', -2);
    expect(copy.toRecord()).toEqual({ 'zone=z1': 4 });
    expect(copy.size).toBe(1);
    expect(copy.anyPositiveForNode({ zone: 'z2' })).toBe(false);
    expect(view.anyPositiveForNode({ zone: 'z2' })).toBe(true);
    copy.addForNode({ zone: 'z1' }, 'zone', -4);
    expect(copy.hasPairs()).toBe(false);
    expect(view.get('zone', 'z1')).toBe(4);
  });

  it('refuses to answer once its bases moved on', () => {
    const freshness = { epoch: 0 };
    const view = new LayeredCounts([base()], freshness);
    expect(view.get('zone', 'z1')).toBe(2);
    freshness.epoch++;
    expect(() => view.get('zone', 'z1')).toThrow(/read after a later attempt/);
  });
});
