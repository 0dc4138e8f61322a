/** Requested vs allocatable per node and zone, from the objects of a (settled) cluster. */
import { Node, Pod, nodeAllocatable, podRequests } from '@schedlab/k8s';
import { zoneOf } from '@schedlab/k8s';

export interface ResourceUse {
  requested: number;
  allocatable: number;
  /** requested / allocatable, 0 when nothing is allocatable. */
  ratio: number;
}

export interface Utilization {
  /** cpu in millicores, memory in bytes, pods as a count. */
  cpu: ResourceUse;
  memory: ResourceUse;
  pods: ResourceUse;
}

export interface UtilizationReport {
  nodes: Record<string, Utilization>;
  /** Zone label value (or "" for nodes without one) → totals. */
  zones: Record<string, Utilization>;
  cluster: Utilization;
  /** Population standard deviation of the per-node ratios. */
  stdDev: { cpu: number; memory: number; pods: number };
}

const use = (requested: number, allocatable: number): ResourceUse => ({
  requested,
  allocatable,
  ratio: allocatable > 0 ? requested / allocatable : 0,
});
const add = (a: Utilization, b: Utilization): Utilization => ({
  cpu: use(a.cpu.requested + b.cpu.requested, a.cpu.allocatable + b.cpu.allocatable),
  memory: use(a.memory.requested + b.memory.requested, a.memory.allocatable + b.memory.allocatable),
  pods: use(a.pods.requested + b.pods.requested, a.pods.allocatable + b.pods.allocatable),
});
const empty = (): Utilization => ({ cpu: use(0, 0), memory: use(0, 0), pods: use(0, 0) });

function stdDev(values: number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
}

export function nodeUtilization(node: Node, pods: readonly Pod[]): Utilization {
  const alloc = nodeAllocatable(node);
  let cpu = 0;
  let memory = 0;
  for (const p of pods) {
    const r = podRequests(p);
    cpu += r.get('cpu') ?? 0;
    memory += r.get('memory') ?? 0;
  }
  return {
    cpu: use(cpu, alloc.get('cpu') ?? 0),
    memory: use(memory, alloc.get('memory') ?? 0),
    pods: use(pods.length, alloc.get('pods') ?? 0),
  };
}

export function utilization(nodes: readonly Node[], pods: readonly Pod[]): UtilizationReport {
  const byNode = new Map<string, Pod[]>();
  for (const p of pods)
    if (p.spec?.nodeName) byNode.set(p.spec.nodeName, [...(byNode.get(p.spec.nodeName) ?? []), p]);
  const report: UtilizationReport = {
    nodes: {},
    zones: {},
    cluster: empty(),
    stdDev: { cpu: 0, memory: 0, pods: 0 },
  };
  for (const n of nodes) {
    const name = n.metadata?.name ?? '';
    const u = nodeUtilization(n, byNode.get(name) ?? []);
    report.nodes[name] = u;
    const zone = zoneOf(n) ?? '';
    // Own keys only: a zone named "constructor" is not Object.prototype's.
    report.zones[zone] = add(Object.hasOwn(report.zones, zone) ? report.zones[zone] : empty(), u);
    report.cluster = add(report.cluster, u);
  }
  const all = Object.values(report.nodes);
  report.stdDev = {
    cpu: stdDev(all.map((u) => u.cpu.ratio)),
    memory: stdDev(all.map((u) => u.memory.ratio)),
    pods: stdDev(all.map((u) => u.pods.ratio)),
  };
  return report;
}
