import type { KubeObject } from '@schedlab/k8s';
import { runAnalysis } from '../pipeline';
import { timelinePriorityClasses } from '../testing/timeline';
import type { TimelinePod, TimelineResult } from './result';

/**
 * Controllers in a timeline: the dump's workloads get their pods at the start as `simulate` gives
 * them, and a controller-owned pod that goes away mid-run is replaced at that instant.
 */

const node = (name: string, cpu: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: {
      allocatable: { cpu, memory: '16Gi', pods: '110' },
      capacity: { cpu, memory: '16Gi', pods: '110' },
    },
  }) as KubeObject;

const container = (cpu: string) => [{ name: 'c', image: 'busybox', resources: { requests: { cpu } } }];

const priorityClasses = timelinePriorityClasses;

/** A pod its ReplicaSet/StatefulSet created earlier, running on `nodeName`. */
const owned = (
  name: string,
  nodeName: string,
  cpu: string,
  owner: { kind: string; name: string } | undefined,
  grace = 30,
): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: name,
      ...(owner
        ? {
            ...(owner.kind === 'ReplicaSet' ? { generateName: `${owner.name}-` } : {}),
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: owner.kind,
                name: owner.name,
                uid: `${owner.name}-uid`,
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: {
      priorityClassName: 'p0',
      priority: 0,
      terminationGracePeriodSeconds: grace,
      containers: container(cpu),
      nodeName,
    },
    status: { phase: 'Running' },
  }) as KubeObject;

const arrival = (at: string, name: string, cpu: string) => ({
  at,
  arrive: {
    pod: {
      metadata: { name, namespace: 'default' },
      spec: { priorityClassName: 'p100', containers: container(cpu) },
    },
  },
});

function timeline(items: KubeObject[], doc: unknown): TimelineResult {
  return runAnalysis(
    'timeline',
    [...priorityClasses, ...items],
    { seed: 7, tieBreak: 'lowest-node-name' },
    { timeline: doc },
  ).result;
}

const rec = (r: TimelineResult, key: string) => r.pods.filter((p) => p.pod === `default/${key}`);

/** The pod its controller created in place of `replaced` (a full key). */
function replacementOf(r: TimelineResult, replaced: string): TimelinePod {
  const found = r.pods.find((p) => p.replaces === replaced);
  if (!found) throw new Error(`no replacement of ${replaced} in ${r.pods.map((p) => p.pod).join(', ')}`);
  return found;
}

describe('timeline: workloads in the dump', () => {
  it('an unexpanded Deployment gets the pods simulate gives it (admission too), bound at t=0 where simulate places them', () => {
    // The template requests nothing: the LimitRange's default request (1 CPU) is what admission
    // gives each pod, so 6 replicas on 2 + 3 CPUs leave exactly one pending.
    const limitRange = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace: 'default' },
      spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '1' } }] },
    } as KubeObject;
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 6,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    } as KubeObject;
    const items = [...priorityClasses, node('a', '2'), node('b', '3'), limitRange, deployment];
    const options = { seed: 7, tieBreak: 'lowest-node-name' as const };
    const simulated = runAnalysis('simulate', items, options, {}).result.result.results;
    const timed = runAnalysis('timeline', items, options, { timeline: { events: [] } }).result;

    expect(simulated.filter((p) => p.outcome === 'scheduled')).toHaveLength(5);
    const placements = Object.fromEntries(
      simulated.filter((p) => p.outcome === 'scheduled').map((p) => [p.pod, p.node]),
    );
    const bindings = Object.fromEntries(
      timed.pods.filter((p) => p.boundAt === 0).map((p) => [p.pod, p.node ?? null]),
    );
    expect(bindings).toEqual(placements);
    expect(Object.keys(bindings).every((k) => /^default\/web-[0-9a-f]+-[a-z0-9]{5}$/.test(k))).toBe(true);
    const unplaced = simulated.filter((p) => p.outcome !== 'scheduled').map((p) => p.pod);
    expect(timed.pods.filter((p) => p.outcome === 'pending').map((p) => p.pod)).toEqual(unplaced);
  });

  it('an OrderedReady StatefulSet creates each ordinal once the previous one is bound', () => {
    const set = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: container('1') } },
      },
    } as KubeObject;
    // Room for two: db-2 arrives once db-1 is bound and waits with its FitError.
    const r = timeline([node('a', '2'), set], { events: [], duration: '1m' });
    expect(rec(r, 'db-0')[0]).toMatchObject({ outcome: 'scheduled', boundAt: 0 });
    expect(rec(r, 'db-1')[0]).toMatchObject({ outcome: 'scheduled', boundAt: 0 });
    expect(rec(r, 'db-2')[0]).toMatchObject({ outcome: 'pending', arrivedAt: 0 });
    expect(rec(r, 'db-2')[0].lastFailure).toMatch(/Insufficient cpu/);
  });
});

describe('timeline: controllers replace pods that go away mid-run', () => {
  it('a preempted ReplicaSet pod’s replacement arrives when the grace period ends and is scheduled', () => {
    // a (2 CPU) runs rs-old (2 CPU, grace 30 s); b (2 CPU) is free from the start but has 1 CPU
    // taken by filler. p (2 CPU, priority 100) arrives at 10 s and preempts rs-old; at 40 s
    // rs-old is gone, p binds on a, and the replacement arrives and fits nowhere... until the
    // filler leaves at 60 s (deletePod), when it binds on b.
    const r = timeline(
      [
        node('a', '2'),
        node('b', '2'),
        owned('rs-old', 'a', '2', { kind: 'ReplicaSet', name: 'rs' }),
        owned('filler', 'b', '1', undefined),
      ],
      { events: [arrival('10s', 'p', '2'), { at: '60s', deletePod: 'default/filler' }] },
    );
    expect(rec(r, 'rs-old')[0]).toMatchObject({ outcome: 'preempted', endedAt: 40 });
    expect(rec(r, 'p')[0]).toMatchObject({ outcome: 'scheduled', node: 'a', boundAt: 40 });
    const replacement = replacementOf(r, 'default/rs-old');
    expect(replacement.pod).toMatch(/^default\/rs-[a-z0-9]{5}$/);
    expect(rec(r, 'rs-old')[0].replacedBy).toBe(replacement.pod);
    expect(replacement).toMatchObject({ arrivedAt: 40, boundAt: 60, node: 'b', outcome: 'scheduled' });
    // The bare filler is not recreated.
    expect(rec(r, 'filler')[0]).toMatchObject({ outcome: 'deleted', endedAt: 60 });
    expect(r.pods.some((p) => p.replaces === 'default/filler')).toBe(false);
  });

  it('a replacement that fits nowhere waits with its FitError', () => {
    const r = timeline([node('a', '2'), owned('rs-old', 'a', '2', { kind: 'ReplicaSet', name: 'rs' }, 5)], {
      events: [arrival('0s', 'p', '2')],
      duration: '2m',
    });
    const replacement = replacementOf(r, 'default/rs-old');
    expect(replacement).toMatchObject({ arrivedAt: 5, outcome: 'pending', lastQueue: 'Unschedulable' });
    expect(replacement.lastFailure).toMatch(/0\/1 nodes are available: 1 Insufficient cpu/);
  });

  it('a removed node’s StatefulSet pod comes back with the same name on another node; a bare pod is lost', () => {
    const r = timeline(
      [
        node('a', '2'),
        node('b', '2'),
        owned('db-0', 'a', '1', { kind: 'StatefulSet', name: 'db' }),
        owned('bare', 'a', '1', undefined),
      ],
      { events: [{ at: '30s', removeNode: 'a' }] },
    );
    const db0 = rec(r, 'db-0');
    expect(db0).toHaveLength(2);
    expect(db0[0]).toMatchObject({ outcome: 'lost', node: 'a', endedAt: 30, replacedBy: 'default/db-0' });
    expect(db0[1]).toMatchObject({
      replaces: 'default/db-0',
      arrivedAt: 30,
      boundAt: 30,
      node: 'b',
      outcome: 'scheduled',
    });
    expect(rec(r, 'bare')).toEqual([expect.objectContaining({ outcome: 'lost', endedAt: 30 })]);
    expect(r.pods.some((p) => p.replaces === 'default/bare')).toBe(false);
  });

  it('a runFor Job pod that completes is not replaced; a kubelet-rejected one is, after the retry backoff', () => {
    const job = (name: string, cpu: string, runFor?: string) => ({
      at: '0s',
      arrive: {
        ...(runFor ? { runFor } : {}),
        pod: {
          metadata: {
            name,
            namespace: 'default',
            generateName: `${name}-`,
            ownerReferences: [
              { apiVersion: 'batch/v1', kind: 'Job', name, uid: `${name}-uid`, controller: true },
            ],
          },
          spec: { priorityClassName: 'p0', containers: container(cpu) },
        },
      },
    });
    // a reports 4 CPU allocatable but the kubelet reserves 1: a 4-CPU pod is refused after binding.
    const r = timeline([node('a', '4')], {
      events: [job('short', '1', '10s'), { ...job('big', '4'), at: '20s' }],
      kubelet: [{ systemReserved: { cpu: '1' } }],
      duration: '25s',
    });
    expect(rec(r, 'short')[0]).toMatchObject({ outcome: 'completed', endedAt: 10 });
    expect(r.pods.some((p) => p.replaces === 'default/short')).toBe(false);
    const big = rec(r, 'big')[0];
    expect(big).toMatchObject({ outcome: 'rejected', boundAt: 20 });
    expect(big.lastFailure).toMatch(/^OutOfcpu/);
    // Replaced after 1 s, rejected again, replaced after 2 s, rejected again (at 21 s and 23 s).
    const first = replacementOf(r, 'default/big');
    expect(first).toMatchObject({
      arrivedAt: 21,
      outcome: 'rejected',
      pod: expect.stringMatching(/^default\/big-/),
    });
    const second = replacementOf(r, first.pod);
    expect(second).toMatchObject({ arrivedAt: 23, outcome: 'rejected' });
  });

  it.each([
    ['2', true],
    ['1', false],
  ])(
    'a replacement goes through admission: with a quota of %s pods for rs’s two, admitted %s',
    (hard, admitted) => {
      // Deleting one of rs's pods frees its charge; at 1 (lowered after rs had two) the
      // replacement is still over the quota.
      const quota = {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'pods', namespace: 'default' },
        spec: { hard: { pods: hard } },
      } as KubeObject;
      const rs = { kind: 'ReplicaSet', name: 'rs' };
      const r = timeline([node('a', '4'), owned('rs-a', 'a', '1', rs), owned('rs-b', 'a', '1', rs), quota], {
        events: [{ at: '5s', deletePod: 'default/rs-a' }],
      });
      expect(rec(r, 'rs-a')[0]).toMatchObject({ outcome: 'deleted', endedAt: 5 });
      if (admitted) {
        expect(replacementOf(r, 'default/rs-a')).toMatchObject({ boundAt: 5, node: 'a' });
        expect(r.rejected).toBeUndefined();
      } else {
        expect(rec(r, 'rs-a')[0].replacementRejected).toMatch(/exceeded quota: pods/);
        expect(r.pods.some((p) => p.replaces === 'default/rs-a')).toBe(false);
        expect(r.rejected).toEqual([
          expect.objectContaining({ object: expect.stringMatching(/^Pod default\/rs-/) }),
        ]);
      }
    },
  );
});
