// Filter, PreScore and Score read the nodes' topology values by snapshot index (the lister's
// topologyDomains) when they can. Property: the same plugin over a lister without numbered values
// (label and string-map lookups, as before) gives the same Filter verdict on every node and the
// same normalized scores, across binds and removals, with and without preemption's AddPod, for
// the pod's own constraints and for system-default ones (a Service selecting the pod).
import fc from 'fast-check';
import type { Node, Pod, Service, TopologySpreadConstraint } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { CycleState } from '../../../cycle-state';
import type { NodeInfoLister, NodeScore } from '../../../interface';
import type { MaybeStatus } from '../../../status';
import { PodInfo } from '../../../types';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makePod } from '../../../../testing/builders';
import { defaultArgs } from '../args';
import { PodTopologySpread } from '../plugin';

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
const APPS = ['a', 'b', 'c'];

const constraintArb: fc.Arbitrary<TopologySpreadConstraint> = fc
  .record({
    key: fc.constantFrom(ZONE, HOST, 'rack'),
    hard: fc.boolean(),
    maxSkew: fc.integer({ min: 1, max: 3 }),
    app: fc.constantFrom(...APPS),
    minDomains: fc.option(fc.integer({ min: 1, max: 4 })),
  })
  .map(({ key, hard, maxSkew, app, minDomains }) => ({
    maxSkew,
    topologyKey: key,
    whenUnsatisfiable: hard ? 'DoNotSchedule' : 'ScheduleAnyway',
    labelSelector: { matchLabels: { app } },
    ...(hard && minDomains !== null ? { minDomains } : {}),
  }));

const podArb = fc.record({
  app: fc.constantFrom(...APPS),
  other: fc.boolean(),
  // No constraints of its own (system defaults, a Service's selector) about as often as some.
  constraints: fc.oneof(
    fc.constant<TopologySpreadConstraint[]>([]),
    fc.array(constraintArb, { minLength: 1, maxLength: 3 }),
  ),
  pool: fc.option(fc.constantFrom('p1', 'p2')),
});
type PodSpec = typeof podArb extends fc.Arbitrary<infer T> ? T : never;

let seq = 0;
const spreadPod = (p: PodSpec, nodeName?: string): Pod =>
  makePod({
    name: `p${++seq}`,
    namespace: p.other ? 'other' : 'default',
    labels: { app: p.app },
    nodeName,
    spec: {
      containers: [{ name: 'c', image: 'pause' }],
      ...(p.constraints.length > 0 ? { topologySpreadConstraints: p.constraints } : {}),
      ...(p.pool !== null ? { nodeSelector: { pool: p.pool } } : {}),
    },
  });

/** Per node: a zone ("" or missing on some), a rack on some, a pool. */
const nodesArb = fc.array(
  fc.record({
    zone: fc.option(fc.constantFrom('z1', 'z2', 'z3', ''), { freq: 2 }),
    rack: fc.option(fc.constantFrom('r1', 'r2')),
    pool: fc.constantFrom('p1', 'p2'),
  }),
  { minLength: 1, maxLength: 9 },
);

const verdict = (s: MaybeStatus) => (s === null ? 'OK' : `${s.code}:${s.reasons.join('|')}`);

function plugins(nodes: Node[]) {
  const objects = new ClusterObjects();
  for (const app of APPS)
    objects.services.set({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: app, namespace: 'default' },
      spec: { selector: { app } },
    } as Service);
  const features = new FeatureSet('1.37');
  const handle = new FakeHandle({ nodes, objects, features });
  const snapshot = handle.snapshot();
  // The same snapshot without numbered values: every lookup by label, as before.
  const plain: NodeInfoLister = {
    list: () => snapshot.list(),
    get: (n) => snapshot.get(n),
    havePodsWithAffinityList: () => snapshot.havePodsWithAffinityList(),
    havePodsWithRequiredAntiAffinityList: () => snapshot.havePodsWithRequiredAntiAffinityList(),
    podChangeLog: () => snapshot.podChangeLog(),
  };
  const byIds = new PodTopologySpread(defaultArgs(undefined, features), handle);
  const byLabels = new PodTopologySpread(
    defaultArgs(undefined, features),
    Object.assign(Object.create(handle), { snapshot: () => plain }),
  );
  return { snapshot, byIds, byLabels };
}

function scores(plugin: PodTopologySpread, pod: Pod, nodes: ReturnType<FakeHandle['snapshot']>['list']) {
  const state = new CycleState();
  const list = nodes();
  const status = plugin.preScore(state, pod, list);
  if (status !== null) return verdict(status);
  const out: NodeScore[] = list.map((ni) => ({ name: ni.name, score: 0 }));
  expect(plugin.scoreNodes(state, pod, list, out)).toBeNull();
  expect(plugin.normalizeScore(state, pod, out)).toBeNull();
  return out.map((s) => `${s.name}=${s.score}`).join(' ');
}

describe('PodTopologySpread by value ids', () => {
  it('filters and scores as the label path, across binds, removals and AddPod', () => {
    fc.assert(
      fc.property(
        nodesArb,
        fc.array(fc.tuple(podArb, fc.nat(), fc.boolean()), { maxLength: 15 }),
        fc.array(fc.tuple(podArb, fc.option(fc.tuple(podArb, fc.nat())), fc.nat()), {
          minLength: 1,
          maxLength: 4,
        }),
        (labels, steps, attempts) => {
          const nodes = labels.map((l, i): Node => ({
            metadata: {
              name: `n${i}`,
              labels: {
                [HOST]: `n${i}`,
                pool: l.pool,
                ...(l.zone === null ? {} : { [ZONE]: l.zone }),
                ...(l.rack === null ? {} : { rack: l.rack }),
              },
            },
            status: { allocatable: { pods: '110' }, capacity: { pods: '110' } },
          }));
          const { snapshot, byIds, byLabels } = plugins(nodes);
          const bound: { uid: string; node: string }[] = [];
          let s = 0;
          for (const [incomingSpec, whatIf, subset] of attempts) {
            for (; s < steps.length && (s === 0 || s % 4 !== 0); s++) {
              const [p, at, remove] = steps[s];
              if (remove && bound.length > 0) {
                const [gone] = bound.splice(at % bound.length, 1);
                expect(snapshot.removePod(gone.uid, gone.node)).toBe(true);
              } else {
                const nodeName = `n${at % nodes.length}`;
                const pod = spreadPod(p, nodeName);
                snapshot.addPod(new PodInfo(pod), nodeName);
                bound.push({ uid: pod.metadata!.uid!, node: nodeName });
              }
            }
            s++;
            const incoming = spreadPod(incomingSpec);
            const a = new CycleState();
            const b = new CycleState();
            expect(verdict(byIds.preFilter(a, incoming).status)).toBe(
              verdict(byLabels.preFilter(b, incoming).status),
            );
            const filterAll = () => {
              for (const ni of snapshot.list())
                expect(verdict(byIds.filter(a, incoming, ni))).toBe(
                  verdict(byLabels.filter(b, incoming, ni)),
                );
            };
            filterAll();
            if (whatIf !== null) {
              const ni = snapshot.list()[whatIf[1] % nodes.length];
              const pi = new PodInfo(spreadPod(whatIf[0], ni.name));
              expect(byIds.addPod(a, incoming, pi, ni)).toBeNull();
              expect(byLabels.addPod(b, incoming, pi, ni)).toBeNull();
              filterAll();
            }
            // Scored: every node, or the nodes a mask keeps (Filter's survivors in a real cycle).
            const kept = () => snapshot.list().filter((_, i) => subset === 0 || ((subset >> i) & 1) === 1);
            expect(scores(byIds, incoming, kept)).toBe(scores(byLabels, incoming, kept));
          }
        },
      ),
      { numRuns: 300, seed: 22 },
    );
  });
});
