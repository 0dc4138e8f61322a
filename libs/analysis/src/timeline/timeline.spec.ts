import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseKubernetesObjects, type KubeObject } from '@schedlab/k8s';
import { setupEngine } from '@schedlab/scheduler';
import { parseTimeline, timelineJsonSchema, TimelineError } from './input';
import { runTimeline } from './driver';
import { timelinePriorityClasses } from '../testing/timeline';
import type { TimelineResult } from './result';

const node = (name: string, cpu: string, zone = 'z1'): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone } },
    status: {
      allocatable: { cpu, memory: '16Gi', pods: '110' },
      capacity: { cpu, memory: '16Gi', pods: '110' },
    },
  }) as KubeObject;

const podSpec = (cpu: string, priority: number, grace?: number) => ({
  priority,
  ...(grace === undefined ? {} : { terminationGracePeriodSeconds: grace }),
  containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu } } }],
});

const running = (name: string, nodeName: string, cpu: string, priority: number, grace?: number): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: name },
    spec: { ...podSpec(cpu, priority, grace), nodeName },
    status: { phase: 'Running' },
  }) as KubeObject;

/** Arrivals are admitted as the API server would: their priority comes from a PriorityClass. */
const arrival = (at: string, name: string, cpu: string, priority: number, extra: object = {}) => {
  const { priority: _p, ...spec } = podSpec(cpu, priority);
  return {
    at,
    arrive: {
      pod: {
        metadata: { name, namespace: 'default' },
        spec: { ...spec, priorityClassName: `p${priority}`, ...extra },
      },
    },
  };
};

const priorityClasses = timelinePriorityClasses;

function run(items: KubeObject[], doc: unknown, seed = 0): TimelineResult {
  const engine = { seed, tieBreak: 'lowest-node-name' as const };
  return runTimeline([...priorityClasses, ...items], parseTimeline(doc, seed), {
    engine,
    setup: setupEngine({}),
  });
}

const pod = (r: TimelineResult, key: string) => r.pods.find((p) => p.pod === `default/${key}`)!;

describe('timeline: preemption races on the simulated clock', () => {
  it('a preemptor waits out its victim’s grace period on its nominated node, then binds', () => {
    // n1 (4 CPU) runs a low-priority 4-CPU pod with a 30 s grace period; p (3 CPU, priority 100)
    // arrives at 10 s: it preempts, is nominated to n1, and binds when the victim is gone at 40 s.
    const r = run([node('n1', '4'), running('low', 'n1', '4', 0, 30)], {
      events: [arrival('10s', 'p', '3', 100)],
    });
    expect(r.preemptions).toEqual([{ at: 10, preemptor: 'default/p', node: 'n1', victims: ['default/low'] }]);
    expect(pod(r, 'low')).toMatchObject({
      outcome: 'preempted',
      preemptedBy: 'default/p',
      preemptedAt: 10,
      endedAt: 40,
    });
    expect(pod(r, 'p')).toMatchObject({
      outcome: 'scheduled',
      node: 'n1',
      arrivedAt: 10,
      boundAt: 40,
      waitedSeconds: 30,
      attempts: 2,
    });
  });

  it('0 s grace lets the high-priority pod in at once', () => {
    const r = run([node('n1', '4'), running('low', 'n1', '4', 0, 0)], {
      events: [arrival('10s', 'p', '3', 100)],
    });
    expect(pod(r, 'low')).toMatchObject({ outcome: 'preempted', endedAt: 10 });
    // The victim's deletion arrives while p is in flight: p is requeued and, activeQ being empty,
    // popped from backoffQ at once (SchedulerPopFromBackoffQ).
    expect(pod(r, 'p')).toMatchObject({
      outcome: 'scheduled',
      node: 'n1',
      boundAt: 10,
      waitedSeconds: 0,
      attempts: 2,
    });
  });

  it('the nomination holds the room against a lower-priority pod during the grace period', () => {
    // q (priority 50, 1 CPU) arrives at 20 s: n1 has the terminating victim (4) and p's nomination (3)
    // counted, so q waits; at 40 s the victim goes, p (higher priority) pops first and binds; q
    // then fits in the 1 CPU left.
    const r = run([node('n1', '4'), running('low', 'n1', '4', 0, 30)], {
      events: [arrival('10s', 'p', '3', 100), arrival('20s', 'q', '1', 50)],
    });
    expect(pod(r, 'p')).toMatchObject({ node: 'n1', boundAt: 40 });
    expect(pod(r, 'q')).toMatchObject({ node: 'n1', boundAt: 40 });
    expect(pod(r, 'q').attempts).toBeGreaterThanOrEqual(2);
  });

  it('a smaller pod takes the nominated node first (the nomination does not hold against higher priority)', () => {
    // n1 (4 CPU): v (2 CPU, priority 0, grace 30) and free 2; n2 (4 CPU) runs w (4 CPU, priority 0).
    // p (3 CPU, priority 100) at 10 s preempts v on n1 (lowest-name tie-break), nominated n1.
    // s (2 CPU, priority 1000) at 15 s does not count p's nomination: it binds to n1 in the free 2 CPU.
    // At 40 s v is gone: n1 has 2 CPU free, p needs 3; p may preempt again (no terminating pod
    // left on n1) and takes n2 from w, binding when w's grace period ends at 70 s.
    const r = run(
      [node('n1', '4'), node('n2', '4'), running('v', 'n1', '2', 0, 30), running('w', 'n2', '4', 0, 30)],
      { events: [arrival('10s', 'p', '3', 100), arrival('15s', 's', '2', 1000)] },
    );
    expect(pod(r, 's')).toMatchObject({ node: 'n1', boundAt: 15 });
    expect(r.preemptions.map((x) => [x.at, x.preemptor, x.node, x.victims])).toEqual([
      [10, 'default/p', 'n1', ['default/v']],
      [40, 'default/p', 'n2', ['default/w']],
    ]);
    expect(pod(r, 'p')).toMatchObject({ node: 'n2', boundAt: 70, outcome: 'scheduled' });
  });

  it('a higher-priority pod overtakes during the grace period', () => {
    // n1 (4 CPU) runs low (4 CPU, grace 30). p (priority 100, 4 CPU) preempts at 10 s; h
    // (priority 1000, 4 CPU) arrives at 20 s: p's nomination does not hold against it, h is
    // nominated to n1 too (the terminating victim is its victim as well). At 40 s both are
    // requeued; h pops first and binds, p finds no victim it may preempt and loses its nomination.
    const r = run([node('n1', '4'), running('low', 'n1', '4', 0, 30)], {
      events: [arrival('10s', 'p', '4', 100), arrival('20s', 'h', '4', 1000)],
    });
    expect(pod(r, 'h')).toMatchObject({ node: 'n1', boundAt: 40 });
    const p = pod(r, 'p');
    expect(p.outcome).toBe('pending');
    expect(p.nominatedNode).toBeUndefined();
    expect(p.lastFailure).toMatch(/^0\/1 nodes are available: 1 Insufficient cpu\. preemption: /);
    expect(p.lastQueue).toBe('Unschedulable');
  });
});

describe('timeline: queue, arrivals and events', () => {
  it('a pod too big for every node waits in the pool until a node is added', () => {
    const r = run([node('n1', '1')], {
      duration: '10m',
      events: [arrival('0s', 'big', '2', 0), { at: '5m', addNode: node('n2', '4') }],
    });
    // Rejected once, the pod waits in the unschedulable pool (no event helps it) until n2 comes.
    expect(pod(r, 'big')).toMatchObject({ node: 'n2', arrivedAt: 0, boundAt: 300 });
    // One attempt at 0 s, flushes every 5 min (the pool's timeout) retry it: 0 s, then at 300 s the
    // node add and the flush coincide.
    expect(pod(r, 'big').attempts).toBe(2);
  });

  it('gated pods wait in the pool until the gate is lifted', () => {
    const r = run([node('n1', '4')], {
      events: [
        arrival('0s', 'g', '1', 0, { schedulingGates: [{ name: 'example.com/wait' }] }),
        { at: '90s', ungate: { pod: 'g' } },
      ],
    });
    expect(pod(r, 'g')).toMatchObject({ node: 'n1', boundAt: 90, attempts: 1 });
    expect(r.series.gated[0]).toBe(1);
    expect(r.series.gated[2]).toBe(0);
  });

  it('runFor completes jobs and frees their room for the next', () => {
    const r = run([node('n1', '2')], {
      podTemplates: {
        job: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1' } } }] },
      },
      events: [{ at: '0s', burst: { template: 'job', count: 4, runFor: '10m' } }],
    });
    const bound = r.pods.map((p) => p.boundAt).sort((a, b) => a! - b!);
    expect(bound).toEqual([0, 0, 600, 600]);
    expect(r.summary).toMatchObject({ pods: 4, completed: 4, pendingAtEnd: 0 });
    expect(r.summary.timeToSchedule).toMatchObject({ count: 4, p50: 0, p90: 600, max: 600 });
  });

  it('Poisson arrivals are the same for the same seed and differ for another', () => {
    const doc = {
      podTemplates: {
        web: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '10m' } } }] },
      },
      events: [{ at: '0s', poisson: { template: 'web', perMinute: 6, duration: '1h' } }],
    };
    const a = parseTimeline(doc, 1).actions.map((x) => x.at);
    expect(parseTimeline(doc, 1).actions.map((x) => x.at)).toEqual(a);
    expect(parseTimeline(doc, 2).actions.map((x) => x.at)).not.toEqual(a);
    expect(a.length).toBeGreaterThan(300);
    expect(a.length).toBeLessThan(420);
  });

  it('names the field of an invalid document', () => {
    expect(() => parseTimeline({ events: [{ at: '5x', cordon: 'n1' }] })).toThrow(
      /^events\[0\]\.at: must be a duration/,
    );
    expect(() => parseTimeline({ events: [{ at: '1s', burst: { template: 'x' } }] })).toThrow(
      /^events\[0\]\.burst\.count: /,
    );
    expect(() => parseTimeline({ events: [{ at: '1s', cordon: 'a', uncordon: 'a' }] })).toThrow(
      'events[0]: has cordon and uncordon: one event per entry',
    );
    expect(() => parseTimeline({ events: [{ at: '1s', burst: { template: 'x', count: 2 } }] })).toThrow(
      TimelineError,
    );
  });

  it('a time of day is on the start’s date', () => {
    const t = parseTimeline({ start: '2030-01-01T08:00:00Z', events: [{ at: '09:00', cordon: 'n1' }] });
    expect(t.actions[0].at).toBe(3_600_000);
  });
});

describe('timeline: several profiles share the clock', () => {
  it('pods of a second schedulerName are queued and scheduled by their profile; an unknown one is an error', () => {
    const engine = {
      seed: 0,
      schedulerConfiguration: {
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        profiles: [{ schedulerName: 'default-scheduler' }, { schedulerName: 'batch-scheduler' }],
      },
    };
    const doc = {
      events: [
        arrival('0s', 'a', '1', 0),
        arrival('5s', 'b', '1', 0, { schedulerName: 'batch-scheduler' }),
        arrival('6s', 'c', '1', 0, { schedulerName: 'nobody' }),
      ],
    };
    const r = runTimeline([...priorityClasses, node('n1', '4')], parseTimeline(doc, 0), {
      engine,
      setup: setupEngine(engine),
    });
    expect(pod(r, 'a')).toMatchObject({ node: 'n1', boundAt: 0 });
    expect(pod(r, 'b')).toMatchObject({ node: 'n1', boundAt: 5 });
    expect(pod(r, 'c')).toMatchObject({
      outcome: 'error',
      attempts: 1,
      lastFailure: 'no profile for schedulerName "nobody"',
    });
  });
});

describe('timeline: disruption budgets in preemption', () => {
  it('a victim protected by a PodDisruptionBudget is still preempted when nothing else helps, and counted', () => {
    const low = running('low', 'n1', '4', 0, 30) as KubeObject & {
      metadata: { labels?: Record<string, string> };
    };
    low.metadata.labels = { app: 'db' };
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
    } as KubeObject;
    const r = run([node('n1', '4'), low, pdb], { events: [arrival('10s', 'p', '3', 100)] });
    expect(r.preemptions).toEqual([
      { at: 10, preemptor: 'default/p', node: 'n1', victims: ['default/low'], pdbViolations: 1 },
    ]);
  });
});

describe('timeline: the profile’s backoff', () => {
  const backoffRun = (initial?: number) => {
    const engine = {
      seed: 0,
      compatibilityVersion: '1.32',
      ...(initial === undefined
        ? {}
        : {
            schedulerConfiguration: {
              apiVersion: 'kubescheduler.config.k8s.io/v1',
              kind: 'KubeSchedulerConfiguration',
              podInitialBackoffSeconds: initial,
              podMaxBackoffSeconds: 4 * initial,
            },
          }),
    };
    const doc = { events: [arrival('0s', 'big', '2', 0), { at: '2s', addNode: node('n2', '4') }] };
    return runTimeline([...priorityClasses, node('n1', '1')], parseTimeline(doc, 0), {
      engine,
      setup: setupEngine(engine),
    });
  };

  it('podInitialBackoffSeconds holds a pod an event requeues until its backoff ends (1.32: no pop from backoffQ)', () => {
    // Rejected at 0 s; n2 arrives at 2 s. Default 1 s backoff: over by then, the pod goes
    // straight to activeQ and binds at 2 s. 5 s backoff (ends at 5 s): it waits in backoffQ, and the
    // 1 s flush moves it on the first tick past its end (the queue's isPodBackingoff holds at
    // exactly 5 s), so it binds at 6 s.
    expect(pod(backoffRun(), 'big')).toMatchObject({ node: 'n2', boundAt: 2, attempts: 2 });
    const slow = pod(backoffRun(5), 'big');
    expect(slow).toMatchObject({ node: 'n2', attempts: 2 });
    expect(slow.boundAt).toBe(6);
  });
});

describe('timeline: kubelet admission after binding', () => {
  it('a node reporting allocatable = capacity: the scheduler binds, the kubelet (500m reserved) refuses OutOfcpu', () => {
    const r = run([node('n1', '4')], {
      kubelet: [{ nodes: ['n1'], systemReserved: { cpu: '500m' } }],
      events: [arrival('0s', 'a', '2', 0), arrival('10s', 'b', '2', 0)],
    });
    expect(pod(r, 'a')).toMatchObject({ outcome: 'scheduled', node: 'n1' });
    expect(pod(r, 'b')).toMatchObject({
      outcome: 'rejected',
      node: 'n1',
      boundAt: 10,
      endedAt: 10,
      lastFailure:
        "OutOfcpu: Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 2000, capacity: 3500",
    });
    // Without the kubelet's facts both run.
    const plain = run([node('n1', '4')], {
      events: [arrival('0s', 'a', '2', 0), arrival('10s', 'b', '2', 0)],
    });
    expect(pod(plain, 'b').outcome).toBe('scheduled');
  });
});

describe('timeline: scenario steps at a time and the published schema', () => {
  it('a scenario step at 60 s (addNodes from a template) is a Node/Add event that moves the waiting pod', () => {
    const r = run([node('n1', '1')], {
      nodeTemplates: [{ name: 'big', allocatable: { cpu: '8', memory: '32Gi', pods: '110' } }],
      events: [
        arrival('0s', 'big-pod', '4', 0),
        { at: '60s', step: { addNodes: { template: 'big', count: 1 } } },
      ],
    });
    const p = pod(r, 'big-pod');
    expect(p).toMatchObject({ arrivedAt: 0, boundAt: 60, attempts: 2, outcome: 'scheduled' });
    expect(p.node).not.toBe('n1');
  });

  it('a deletePod step at 30 s frees the room a waiting pod needs', () => {
    const r = run([node('n1', '2'), running('old', 'n1', '2', 0)], {
      events: [
        arrival('0s', 'next', '2', 0),
        { at: '30s', step: { deletePod: { namespace: 'default', name: 'old' } } },
      ],
    });
    expect(pod(r, 'next')).toMatchObject({ node: 'n1', boundAt: 30 });
  });

  it('DRA: a step keeps the devices the run allocated, and a deleted pod frees its device for a waiting pod', () => {
    // examples/dra-gpus.yaml without its pending pods: six GPUs, serving-0 holds one. Arrivals
    // use claims created beforehand (the timeline does not run the claim controller on arrivals).
    const dra = parseKubernetesObjects(
      readFileSync(path.join(__dirname, '../../../../examples/dra-gpus.yaml'), 'utf8'),
    ).objects.filter((o) => o.kind !== 'Pod' || (o as { spec?: { nodeName?: string } }).spec?.nodeName);
    const names = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'];
    const claims = names.map(
      (n) =>
        ({
          apiVersion: 'resource.k8s.io/v1',
          kind: 'ResourceClaim',
          metadata: { name: `${n}-gpu`, namespace: 'ml' },
          spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
        }) as KubeObject,
    );
    const gpuArrival = (at: string, name: string) => ({
      at,
      arrive: {
        pod: {
          metadata: { name, namespace: 'ml' },
          spec: {
            resourceClaims: [{ name: 'gpu', resourceClaimName: `${name}-gpu` }],
            containers: [
              { name: 't', image: 'x', resources: { requests: { cpu: '1' }, claims: [{ name: 'gpu' }] } },
            ],
          },
        },
      },
    });
    const r = run([...dra, ...claims], {
      events: [
        ...names.slice(0, 5).map((n) => gpuArrival('0s', n)),
        gpuArrival('10s', 'g6'),
        // Any step rebuilds the cluster: the five allocations must survive it.
        { at: '20s', step: { label: { nodes: ['cpu-1'], labels: { touched: 'yes' } } } },
        { at: '30s', step: { deletePod: { namespace: 'ml', name: 'g1' } } },
      ],
    });
    const ml = (name: string) => r.pods.find((p) => p.pod === `ml/${name}`);
    for (const n of names.slice(0, 5)) expect(ml(n)?.boundAt).toBe(0);
    expect(ml('g6')).toMatchObject({ node: ml('g1')?.node, boundAt: 30 });
  });

  it('DRA: arrivals get their claims from templates, and a completed pod’s device goes to the one waiting', () => {
    // examples/dra-gpus.yaml without its pending pods: six GPUs, serving-0 holds one, five free.
    const dra = parseKubernetesObjects(
      readFileSync(path.join(__dirname, '../../../../examples/dra-gpus.yaml'), 'utf8'),
    ).objects.filter((o) => o.kind !== 'Pod' || (o as { spec?: { nodeName?: string } }).spec?.nodeName);
    const trainer = (at: string, name: string, runFor?: string) => ({
      at,
      arrive: {
        ...(runFor ? { runFor } : {}),
        pod: {
          metadata: { name, namespace: 'ml' },
          spec: {
            resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'one-gpu' }],
            containers: [
              { name: 't', image: 'x', resources: { requests: { cpu: '500m' }, claims: [{ name: 'gpu' }] } },
            ],
          },
        },
      },
    });
    const r = run(dra, {
      events: [
        trainer('0s', 't1', '60s'),
        ...['t2', 't3', 't4', 't5'].map((n) => trainer('0s', n)),
        trainer('10s', 't6'),
      ],
    });
    const ml = (name: string) => r.pods.find((p) => p.pod === `ml/${name}`);
    for (const n of ['t1', 't2', 't3', 't4', 't5']) expect(ml(n)?.boundAt).toBe(0);
    expect(ml('t1')).toMatchObject({ outcome: 'completed', endedAt: 60 });
    // t1's generated claim is deleted with its pod done, and its device wakes t6 at once.
    expect(ml('t6')).toMatchObject({ node: ml('t1')?.node, boundAt: 60 });
  });

  it('DRA-backed extended resources: a completed pod’s claim goes with it and its device wakes the one waiting', () => {
    // The same GPUs asked for by the class's implicit extended resource name (DRAExtendedResource).
    const dra = parseKubernetesObjects(
      readFileSync(path.join(__dirname, '../../../../examples/dra-gpus.yaml'), 'utf8'),
    ).objects.filter((o) => o.kind !== 'Pod' || (o as { spec?: { nodeName?: string } }).spec?.nodeName);
    const gpu = { 'deviceclass.resource.kubernetes.io/gpu.example.com': '1' };
    const worker = (at: string, name: string, runFor?: string) => ({
      at,
      arrive: {
        ...(runFor ? { runFor } : {}),
        pod: {
          metadata: { name, namespace: 'ml' },
          spec: {
            containers: [
              { name: 't', image: 'x', resources: { requests: { cpu: '500m', ...gpu }, limits: gpu } },
            ],
          },
        },
      },
    });
    const r = run(dra, {
      events: [
        worker('0s', 'w1', '60s'),
        ...['w2', 'w3', 'w4', 'w5'].map((n) => worker('0s', n)),
        worker('10s', 'w6'),
      ],
    });
    const ml = (name: string) => r.pods.find((p) => p.pod === `ml/${name}`);
    for (const n of ['w1', 'w2', 'w3', 'w4', 'w5']) expect(ml(n)?.boundAt).toBe(0);
    expect(ml('w1')).toMatchObject({ outcome: 'completed', endedAt: 60 });
    expect(ml('w6')).toMatchObject({ node: ml('w1')?.node, boundAt: 60 });
  });

  it('docs/timeline.schema.json is up to date (UPDATE_TIMELINE_SCHEMA=1 regenerates it)', () => {
    const file = path.join(__dirname, '../../../../docs/timeline.schema.json');
    const generated = JSON.stringify(timelineJsonSchema(), null, 2) + '\n';
    if (process.env.UPDATE_TIMELINE_SCHEMA) writeFileSync(file, generated);
    expect(readFileSync(file, 'utf8')).toBe(generated);
  });
});
