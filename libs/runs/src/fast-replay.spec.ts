/**
 * A full explanation fast-forwarded from a run's records (placements and the pod's stored replay
 * cursor) equals the explanation of the replay that schedules every earlier pod again and stops at
 * the pod (stopAfterPod), exactly: through the service path (executeEngineJob as the worker runs
 * it, rows as stored, replayPodExplanation as the api's engine thread runs it), for every pod of
 * every golden case (each family, at the default release and at v1.26.7) and for pods of a
 * generated mid-size cluster with preemption, zone spread and the random tie-break.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { KubeObject } from '@schedlab/k8s';
import type { RecordedAttempt, ReplayCursor } from '@schedlab/scheduler';
import type { EngineJob, EngineOutput, PodReplay } from './engine-job';
import { executeEngineJob, replayPodExplanation } from './engine-task';

const workspace = path.resolve(__dirname, '../../..');
const FAMILIES = ['cases', 'profiles', 'scale', 'storage', 'capacity', 'node-loss'];
/** Golden families at the default release and at the oldest recorded one. */
const RELEASES: [label: string, dir: string][] = [
  ['v1.37.2', path.join(workspace, 'conformance/v1.37.2')],
  ['v1.26.7', path.resolve(workspace, '../shared/conformance')],
];
/** Pods per case replayed both ways in the large (scale) cases; every pod elsewhere. */
const SAMPLED = 12;

function contentOf(items: readonly KubeObject[]): Uint8Array {
  return gzipSync(Buffer.from(JSON.stringify({ items })));
}

interface GoldenJob {
  name: string;
  job: EngineJob;
}

function goldenJobs(): GoldenJob[] {
  const out: GoldenJob[] = [];
  for (const [label, root] of RELEASES) {
    for (const family of FAMILIES) {
      const dir = path.join(root, family);
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
        const c = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
        out.push({
          name: `${label}/${family}/${file}`,
          job: {
            runId: file,
            type: 'simulate',
            content: contentOf(c.input.items),
            schedulerConfiguration: c.config.schedulerConfiguration,
            seed: c.seed ?? 0,
            options: {
              compatibilityVersion: String(c.kubeSchedulerVersion).replace(/^v/, ''),
              featureGates: c.config.featureGates ?? {},
              tieBreak: c.config.tieBreak === 'lowest-node-name' ? 'lowest-node-name' : 'random',
              percentageOfNodesToScore: c.config.percentageOfNodesToScore ?? 0,
              ...(c.config.preemption === false ? { preemption: false } : {}),
            },
          },
        });
      }
    }
  }
  return out;
}

/** What the api reads for a replay: the placements in order, the pod's stored cursor. */
function recordsOf(output: EngineOutput): {
  attempts: RecordedAttempt[];
  cursors: Map<string, ReplayCursor>;
} {
  const scheduled = output.placements.filter((p) => !p.message?.startsWith('admission rejected'));
  const attempts = scheduled.map((p) => ({
    pod: p.podKey,
    node: p.node,
    nominatedNode: p.nominatedNode,
    victims: p.victims,
  }));
  const cursors = new Map<string, ReplayCursor>();
  for (const e of output.explanations) {
    const cursor = e.explanation.replayCursor as ReplayCursor | undefined;
    if (cursor) cursors.set(`${e.namespace}/${e.name}`, cursor);
  }
  return { attempts, cursors };
}

/** Both ways, through JSON as the api serves them (and once more structurally). */
function expectSameReplay(pod: string, fast: PodReplay, slow: PodReplay): void {
  expect(slow.method).toBe('replay');
  expect({ pod, json: JSON.stringify(fast.result) }).toEqual({ pod, json: JSON.stringify(slow.result) });
  expect(fast.result).toStrictEqual(slow.result);
  expect(fast.nodes).toEqual(slow.nodes);
}

/** Replays `pods` both ways; returns how many fast-forwarded (the rest fell back). */
function compareReplays(
  job: EngineJob,
  pods?: readonly string[],
): { fast: number; total: number; fallbacks: string[] } {
  const output = executeEngineJob(job, () => undefined);
  const { attempts, cursors } = recordsOf(output);
  const targets = pods ?? attempts.map((a) => a.pod);
  let fast = 0;
  const fallbacks = new Set<string>();
  for (const pod of targets) {
    const at = attempts.findIndex((a) => a.pod === pod);
    const cursor = cursors.get(pod);
    expect(cursor).toBeDefined();
    const forwarded = replayPodExplanation(
      { ...job, fastForward: { attempts: attempts.slice(0, at + 1), cursor: cursor! } },
      pod,
    );
    const replayed = replayPodExplanation(job, pod);
    expectSameReplay(pod, forwarded, replayed);
    if (forwarded.method === 'fast-forward') fast++;
    else fallbacks.add(forwarded.fallback ?? '?');
  }
  return { fast, total: targets.length, fallbacks: [...fallbacks] };
}

function sample<T>(list: readonly T[], count: number, pick: (t: T) => boolean = () => false): T[] {
  const chosen = new Set<T>(list.filter(pick));
  for (let i = 0; i < count && list.length > 0; i++) chosen.add(list[Math.floor((i * list.length) / count)]);
  if (list.length > 0) chosen.add(list[list.length - 1]);
  return [...chosen];
}

describe('fast-forward explanation replay', () => {
  const jobs = goldenJobs();

  it('covers every golden family at both releases', () => {
    for (const [label] of RELEASES) {
      for (const family of FAMILIES) {
        expect(jobs.some((j) => j.name.startsWith(`${label}/${family}/`))).toBe(true);
      }
    }
  });

  it.each(jobs.filter((j) => !j.name.includes('/scale/')).map((j) => [j.name, j] as const))(
    'equals the stopAfterPod replay for every pod of %s',
    (name, { job }) => {
      const { fast, total, fallbacks } = compareReplays(job);
      // Only the storage family binds claims (binding writes PVs and PVCs): it may fall back.
      if (!name.includes('/storage/'))
        expect({ fast, total, fallbacks }).toEqual({ fast: total, total, fallbacks: [] });
    },
  );

  it.each(jobs.filter((j) => j.name.includes('/scale/')).map((j) => [j.name, j] as const))(
    'equals the stopAfterPod replay for sampled pods and every preempting pod of %s',
    (_name, { job }) => {
      const output = executeEngineJob(job, () => undefined);
      const pods = sample(
        output.placements.map((p) => p),
        SAMPLED,
        (p) => p.nominatedNode !== null,
      ).map((p) => p.podKey);
      const { fast, total } = compareReplays(job, pods);
      expect(fast).toBe(total);
    },
  );

  it('equals it on a generated mid-size cluster with preemption, zone spread and random tie-break', () => {
    const items = midSizeCluster();
    const job: EngineJob = {
      runId: 'mid',
      type: 'simulate',
      content: contentOf(items),
      seed: 5,
      options: { percentageOfNodesToScore: 30 },
    };
    const output = executeEngineJob(job, () => undefined);
    const preempting = output.placements.filter((p) => p.nominatedNode !== null);
    expect(preempting.length).toBeGreaterThan(3);
    expect(output.placements.some((p) => p.status === 'unschedulable')).toBe(true);
    const pods = sample(output.placements, 40, (p) => p.nominatedNode !== null).map((p) => p.podKey);
    // Also the pods right after each preemption: they see its victims gone and its nomination.
    for (const p of preempting) {
      const next = output.placements[p.ordinal + 1];
      if (next) pods.push(next.podKey);
    }
    const { fast, total } = compareReplays(job, [...new Set(pods)]);
    expect(fast).toBe(total);
  });

  it('falls back to the full replay when the records do not match the run', () => {
    const items = midSizeCluster();
    const job: EngineJob = {
      runId: 'mid',
      type: 'simulate',
      content: contentOf(items),
      seed: 5,
      options: {},
    };
    const output = executeEngineJob(job, () => undefined);
    const { attempts, cursors } = recordsOf(output);
    const target = attempts[40].pod;
    const tampered = attempts.slice(0, 41).map((a, i) => (i === 10 ? { ...a, node: attempts[11].node } : a));
    const forwarded = replayPodExplanation(
      { ...job, fastForward: { attempts: tampered.reverse(), cursor: cursors.get(target)! } },
      target,
    );
    expect(forwarded.method).toBe('replay');
    expect(forwarded.fallback).toMatch(/recorded attempt 0/);
    expect(forwarded.result).toStrictEqual(replayPodExplanation(job, target).result);
  });
});

/** 150 nodes in 3 zones, low-priority pods filling them, then spread, high-priority and plain pods. */
function midSizeCluster(): KubeObject[] {
  const zones = ['za', 'zb', 'zc'];
  const nodes = Array.from({ length: 150 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: `node-${String(i).padStart(3, '0')}`,
      labels: {
        'kubernetes.io/hostname': `node-${String(i).padStart(3, '0')}`,
        'topology.kubernetes.io/zone': zones[i % 3],
      },
    },
    status: {
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
    },
  }));
  const pod = (
    name: string,
    cpu: string,
    extra: Record<string, unknown> = {},
    labels: Record<string, string> = {},
  ) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: {
      containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu, memory: '512Mi' } } }],
      ...extra,
    },
  });
  const running = Array.from({ length: 300 }, (_, i) =>
    pod(
      `low-${i}`,
      i % 2 ? '1500m' : '1',
      { nodeName: nodes[i % 150].metadata.name, priorityClassName: 'low' },
      { app: 'low' },
    ),
  );
  const pending = Array.from({ length: 260 }, (_, i) => {
    if (i % 13 === 0) return pod(`high-${i}`, '3', { priorityClassName: 'high' }, { app: 'high' });
    if (i % 3 === 0)
      return pod(
        `spread-${i}`,
        '500m',
        {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/zone',
              whenUnsatisfiable: i % 2 ? 'DoNotSchedule' : 'ScheduleAnyway',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ],
        },
        { app: 'web' },
      );
    return pod(`plain-${i}`, i % 5 === 0 ? '2' : '250m', {}, { app: 'plain' });
  });
  const classes = [
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 1 },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
  ];
  return [...classes, ...nodes, ...running, ...pending] as unknown as KubeObject[];
}
