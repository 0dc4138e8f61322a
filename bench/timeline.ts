/**
 * A day-long timeline on a 1,000-node cluster (issue #18's target: 20,000 pods in under a minute),
 * a measurement, not a test: 1,000 nodes in 3 zones (16 CPU, 64 GiB), 5,000 long-running pods
 * already bound, then 20,000 arrivals through the scheduling queue — a Poisson stream all day
 * (45-minute jobs), a 09:00 burst of a tenth of them (2-hour batch pods) and at 10:30, while the batch pods still run, a burst of a fortieth (critical pods)
 * that preempt — with a zone's nodes cordoned for an hour.
 *
 *   node -r @swc-node/register bench/timeline.ts [--nodes 1000] [--pods 20000] [--seed 1] [--json out.json]
 */
import { writeFileSync } from 'node:fs';
import type { KubeObject } from '@schedlab/k8s';
import { parseTimeline, runTimeline } from '@schedlab/analysis';
import { setupEngine } from '@schedlab/scheduler';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

const nodes = Number(flag('nodes', '1000'));
const pods = Number(flag('pods', '20000'));
const seed = Number(flag('seed', '1'));
const zones = ['zone-a', 'zone-b', 'zone-c'];

const items: KubeObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'batch' },
    value: 0,
  } as KubeObject,
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'service' },
    value: 1000,
  } as KubeObject,
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'critical' },
    value: 100000,
  } as KubeObject,
];
for (let i = 0; i < nodes; i++) {
  const name = `node-${String(i).padStart(4, '0')}`;
  items.push({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zones[i % zones.length] },
    },
    status: {
      capacity: { cpu: '16', memory: '64Gi', pods: '110' },
      allocatable: { cpu: '16', memory: '64Gi', pods: '110' },
    },
  } as KubeObject);
}
for (let i = 0; i < nodes * 5; i++) {
  items.push({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `svc-${i}`, namespace: 'default', uid: `svc-${i}` },
    spec: {
      nodeName: `node-${String(i % nodes).padStart(4, '0')}`,
      priorityClassName: 'service',
      containers: [{ name: 'c', image: 'svc', resources: { requests: { cpu: '1', memory: '2Gi' } } }],
    },
    status: { phase: 'Running' },
  } as KubeObject);
}

const container = (cpu: string, memory: string) => [
  { name: 'c', image: 'job', resources: { requests: { cpu, memory } } },
];
const burst = Math.round(pods / 10);
const critical = Math.round(pods / 40);
const poisson = pods - burst - critical;
const doc = {
  start: '2030-01-01T00:00:00Z',
  duration: '24h',
  podTemplates: {
    job: { priorityClassName: 'batch', terminationGracePeriodSeconds: 30, containers: container('2', '4Gi') },
    batch: { priorityClassName: 'batch', containers: container('4', '8Gi') },
    critical: { priorityClassName: 'critical', containers: container('8', '8Gi') },
  },
  events: [
    { at: '0s', poisson: { template: 'job', perMinute: poisson / 1440, duration: '24h', runFor: '45m' } },
    { at: '09:00', burst: { template: 'batch', count: burst, runFor: '2h' } },
    ...Array.from({ length: Math.ceil(nodes / 3 / 10) }, (_, k) => ({
      at: '10:00',
      cordon: `node-${String(k * 3).padStart(4, '0')}`,
    })),
    ...Array.from({ length: Math.ceil(nodes / 3 / 10) }, (_, k) => ({
      at: '11:00',
      uncordon: `node-${String(k * 3).padStart(4, '0')}`,
    })),
    { at: '10:30', burst: { template: 'critical', count: critical, runFor: '30m' } },
  ],
};

const engine = { seed };
const t0 = performance.now();
const timeline = parseTimeline(doc, seed);
const result = runTimeline(items, timeline, { engine, setup: setupEngine({}) });
const seconds = (performance.now() - t0) / 1000;
const json = JSON.stringify(result);
const row = {
  nodes,
  runningAtStart: nodes * 5,
  arrivals:
    result.summary.pods -
    result.summary.preempted +
    result.pods.filter((p) => p.outcome === 'preempted' && p.arrivedAt > 0).length,
  summary: result.summary,
  preemptions: result.preemptions.length,
  wallSeconds: Math.round(seconds * 10) / 10,
  resultBytes: json.length,
};
console.log(
  `timeline: ${nodes} nodes, ${timeline.actions.filter((a) => a.action.kind === 'arrive').length} arrivals over 24 h, ` +
    `${result.summary.attempts} attempts, ${result.summary.scheduled + result.summary.completed} bound, ` +
    `${result.preemptions.length} preemptions, p50/p90/p99 wait ${result.summary.timeToSchedule.p50}/` +
    `${result.summary.timeToSchedule.p90}/${result.summary.timeToSchedule.p99} s — ${row.wallSeconds} s wall, ` +
    `result ${(json.length / 1e6).toFixed(1)} MB`,
);
const out = flag('json', '');
if (out) writeFileSync(out, JSON.stringify(row, null, 2));
