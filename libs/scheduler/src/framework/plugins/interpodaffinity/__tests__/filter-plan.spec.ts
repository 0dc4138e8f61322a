// Filter on a snapshot node answers from per-attempt tables by value id (filterPlanOf), kept up to
// date across attempts; a what-if copy of the same node (index -1) answers from labels and string
// maps as before. Property: both give the same status on every node, whatever pods were bound or
// removed before the attempt and whatever preemption's AddPod/RemovePod changed during it.
import fc from 'fast-check';
import type { PodAffinityTerm } from '@schedlab/k8s';
import { CycleState } from '../../../cycle-state';
import type { MaybeStatus } from '../../../status';
import { PodInfo } from '../../../types';
import { affinity, inReq, node, pod, setup, term } from './helpers';

const KEYS = ['zone', 'kubernetes.io/hostname', 'rack'];
const COLORS = ['red', 'green', 'blue'];

const termArb: fc.Arbitrary<PodAffinityTerm> = fc
  .record({
    key: fc.constantFrom(...KEYS, 'constructor'),
    color: fc.constantFrom(...COLORS),
    both: fc.boolean(),
  })
  .map(({ key, color, both }) =>
    term(key, [inReq('color', color)], both ? { namespaces: ['default', 'other'] } : {}),
  );

const podArb = fc.record({
  color: fc.constantFrom(...COLORS),
  other: fc.boolean(),
  required: fc.array(termArb, { maxLength: 2 }),
  requiredAnti: fc.array(termArb, { maxLength: 2 }),
});
type PodSpec = typeof podArb extends fc.Arbitrary<infer T> ? T : never;

const makePod = (p: PodSpec, nodeName?: string) =>
  pod(
    { color: p.color },
    {
      node: nodeName,
      ns: p.other ? 'other' : 'default',
      affinity: affinity({ required: p.required, requiredAnti: p.requiredAnti }),
    },
  );

/** Labels per node: a zone, a hostname, a rack on some (value "" on one), never on others. */
const nodeLabelsArb = fc.array(
  fc.record({ zone: fc.constantFrom('z1', 'z2', ''), rack: fc.option(fc.constantFrom('r1', 'r2', '')) }),
  { minLength: 1, maxLength: 8 },
);

const step = fc.record({
  /** Bind a pod (node index mod node count) or remove a bound one. */
  remove: fc.boolean(),
  at: fc.nat(),
  pod: podArb,
});

const verdict = (s: MaybeStatus) => (s === null ? 'OK' : `${s.code}:${s.reasons.join('|')}`);

describe('InterPodAffinity Filter by value ids', () => {
  it('answers as the label path on every node, across binds, removals and AddPod/RemovePod', () => {
    fc.assert(
      fc.property(
        nodeLabelsArb,
        fc.array(step, { maxLength: 12 }),
        fc.array(fc.tuple(podArb, fc.array(fc.tuple(podArb, fc.nat()), { maxLength: 3 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (labels, steps, attempts) => {
          const nodes = labels.map((l, i) =>
            node(`n${i}`, {
              zone: l.zone,
              'kubernetes.io/hostname': `n${i}`,
              ...(l.rack === null ? {} : { rack: l.rack }),
            }),
          );
          const { plugin, handle } = setup({ nodes, version: '1.37' });
          const snapshot = handle.snapshot();
          const bound: { uid: string; node: string }[] = [];
          const check = (state: CycleState, incoming: ReturnType<typeof makePod>) => {
            for (const ni of snapshot.list()) {
              expect(verdict(plugin.filter(state, incoming, ni))).toBe(
                verdict(plugin.filter(state, incoming, ni.clone())),
              );
            }
          };
          let s = 0;
          for (const [incomingSpec, whatIfs] of attempts) {
            // Some cluster changes before each attempt, so kept tables must follow them.
            for (; s < steps.length && (s === 0 || s % 3 !== 0); s++) {
              const st = steps[s];
              if (st.remove && bound.length > 0) {
                const [gone] = bound.splice(st.at % bound.length, 1);
                expect(snapshot.removePod(gone.uid, gone.node)).toBe(true);
              } else {
                const nodeName = `n${st.at % nodes.length}`;
                const p = makePod(st.pod, nodeName);
                snapshot.addPod(new PodInfo(p), nodeName);
                bound.push({ uid: p.metadata!.uid!, node: nodeName });
              }
            }
            s++;
            const incoming = makePod(incomingSpec);
            const state = new CycleState();
            if (plugin.preFilter(state, incoming).status !== null) continue;
            check(state, incoming);
            for (const [whatIf, at] of whatIfs) {
              const ni = snapshot.list()[at % nodes.length];
              const pi = new PodInfo(makePod(whatIf, ni.name));
              expect(plugin.addPod(state, incoming, pi, ni)).toBeNull();
              check(state, incoming);
              const copy = state.clone();
              expect(plugin.removePod(copy, incoming, pi, ni)).toBeNull();
              check(copy, incoming);
            }
          }
        },
      ),
      { numRuns: 300, seed: 22 },
    );
  });
});
