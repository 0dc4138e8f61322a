/**
 * Baseline vs scenario, or profile A vs profile B on the same snapshot: which pods moved, which
 * became (un)schedulable, how utilization and its spread changed, and how much capacity is
 * stranded on nodes that cannot host any pending pod.
 */
import { podKeyOf } from '@schedlab/k8s';
import type { KubeObject } from '@schedlab/k8s';
import { runScenario } from '../scenario/run';
import type { Scenario } from '../scenario/schema';
import { EngineOptions, World } from '../scenario/world';
import { ScenarioOutcome, outcomeOf } from './simulate-scenario';

export interface StrandedCapacity {
  /** Nodes with free room where every pending pod was filtered out. */
  nodes: string[];
  cpu: number;
  memory: number;
  pods: number;
}

export interface CompareSide extends Omit<ScenarioOutcome, 'run'> {
  stranded: StrandedCapacity;
}

export interface CompareResult {
  before: CompareSide;
  after: CompareSide;
  moved: { pod: string; from: string; to: string }[];
  newlyScheduled: { pod: string; node: string }[];
  newlyUnschedulable: { pod: string; reason: string }[];
}

export function strandedCapacity(world: World): StrandedCapacity {
  const out: StrandedCapacity = { nodes: [], cpu: 0, memory: 0, pods: 0 };
  const pending = world.pendingPods().map((p) => world.lastResults.get(podKeyOf(p)));
  if (pending.length === 0) return out;
  const side = outcomeOf(world);
  for (const [name, u] of Object.entries(side.utilization.nodes)) {
    // A node can host a pending pod unless that pod's last attempt filtered it out.
    const hostsNone = pending.every((r) => r !== undefined && r.filterReasons[name] !== undefined);
    if (!hostsNone) continue;
    out.nodes.push(name);
    out.cpu += Math.max(0, u.cpu.allocatable - u.cpu.requested);
    out.memory += Math.max(0, u.memory.allocatable - u.memory.requested);
    out.pods += Math.max(0, u.pods.allocatable - u.pods.requested);
  }
  return out;
}

const side = (world: World): CompareSide => ({ ...outcomeOf(world), stranded: strandedCapacity(world) });

export interface CompareRequest {
  /** Steps applied on the "after" side only. */
  scenario?: Scenario | string | unknown;
  /** Engine for the "before" side (profile A); default the shared engine. */
  before?: EngineOptions;
  /** Engine for the "after" side (profile B); default the shared engine. */
  after?: EngineOptions;
}

export function compare(
  items: readonly KubeObject[],
  request: CompareRequest,
  engine: EngineOptions = {},
): CompareResult {
  const beforeWorld = runScenario(items, { steps: [] }, { ...engine, ...request.before }).world;
  const afterWorld = runScenario(items, request.scenario ?? { steps: [] }, {
    ...engine,
    ...request.after,
  }).world;
  const before = side(beforeWorld);
  const after = side(afterWorld);
  const result: CompareResult = { before, after, moved: [], newlyScheduled: [], newlyUnschedulable: [] };
  for (const [pod, node] of Object.entries(after.placements)) {
    const was = before.placements[pod];
    if (was === undefined) result.newlyScheduled.push({ pod, node });
    else if (was !== node) result.moved.push({ pod, from: was, to: node });
  }
  for (const group of after.unschedulable) {
    for (const pod of group.pods)
      if (before.placements[pod] !== undefined) result.newlyUnschedulable.push({ pod, reason: group.reason });
  }
  return result;
}
