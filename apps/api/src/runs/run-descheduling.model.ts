/**
 * A deschedule run's result as typed GraphQL fields (`RunResult.descheduling`): the evictions with
 * where each pod went, the rounds, oscillation, and the cluster's figures before and after. All of
 * it is read from what the worker stored (RunResult.analysis, @schedlab/scenarios
 * DeschedulingReport), the report `schedlab deschedule -o json` prints; REST has it as
 * `GET /v1/runs/{id}/result` → `analysis`.
 */
import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import type { DeschedulingReport } from '@schedlab/scenarios';
import { JsonScalar } from '../common/json.scalar';

type Stored = Omit<DeschedulingReport, 'items'>;

@ObjectType('DeschedulingEviction', { description: 'One eviction and what became of its pod' })
export class DeschedulingEvictionView {
  @Field(() => Int) round!: number;
  @Field(() => String, { description: '"namespace/name" of the evicted pod' }) pod!: string;
  @Field(() => String) profile!: string;
  @Field(() => String, { description: 'The plugin, e.g. LowNodeUtilization' }) strategy!: string;
  @Field(() => String, { description: "The descheduler's reason" }) reason!: string;
  @Field(() => String, { nullable: true, description: 'What the plugin saw' }) detail?: string;
  @Field(() => String) oldNode!: string;
  @Field(() => String, { nullable: true, description: '"Kind/name" of the controller; null for a bare pod' })
  owner?: string;
  @Field(() => String, { description: 'rescheduled, unschedulable (pending) or lost (bare pod)' })
  outcome!: string;
  @Field(() => String, { nullable: true, description: 'The pod its controller created instead' })
  replacement?: string;
  @Field(() => String, { nullable: true }) newNode?: string;
  @Field(() => String, {
    nullable: true,
    description: "The scheduler's FitError for a replacement left pending",
  })
  fitError?: string;
  @Field(() => Boolean, {
    nullable: true,
    description: 'The replacement went back to the node it was evicted from',
  })
  sameNode?: boolean;
  @Field(() => Int, { nullable: true, description: 'The round a later eviction freed room for it in' })
  scheduledInRound?: number;
}

@ObjectType('DeschedulingRound')
export class DeschedulingRoundView {
  @Field(() => Int) round!: number;
  @Field(() => String, { description: "The descheduler's clock for the round" }) now!: string;
  @Field(() => [String], { description: 'Eviction limits reached' }) limits!: string[];
  @Field(() => Int, { description: 'Evictions a limit or a PodDisruptionBudget refused' }) refused!: number;
  @Field(() => String, { nullable: true, description: 'Why the cycle did not run' }) skipped?: string;
}

@ObjectType('DeschedulingOscillation')
export class DeschedulingOscillationView {
  @Field(() => String, { description: 'evictedAgain or returnedToOldNode' }) kind!: string;
  @Field(() => String) pod!: string;
  @Field(() => String, { nullable: true }) workload?: string;
  @Field(() => [Int]) rounds!: number[];
  @Field(() => [String]) nodes!: string[];
}

@ObjectType('DeschedulingNode', { description: 'cpu in millicores, memory in bytes' })
export class DeschedulingNodeView {
  @Field(() => String) name!: string;
  @Field(() => String) zone!: string;
  @Field(() => Int) pods!: number;
  @Field(() => Float) cpuRequested!: number;
  @Field(() => Float) cpuAllocatable!: number;
  @Field(() => Float) cpuRatio!: number;
  @Field(() => Float) memoryRequested!: number;
  @Field(() => Float) memoryAllocatable!: number;
  @Field(() => Float) memoryRatio!: number;
}

@ObjectType('DeschedulingZone', { description: 'cpu in millicores, memory in bytes' })
export class DeschedulingZoneView {
  @Field(() => String) zone!: string;
  @Field(() => Int) nodes!: number;
  @Field(() => Int) pods!: number;
  @Field(() => Float) cpuRatio!: number;
  @Field(() => Float) memoryRatio!: number;
}

@ObjectType('DeschedulingSpread', { description: 'A topology spread constraint and how its pods are spread' })
export class DeschedulingSpreadView {
  @Field(() => String) namespace!: string;
  @Field(() => String) selector!: string;
  @Field(() => String) topologyKey!: string;
  @Field(() => Int) maxSkew!: number;
  @Field(() => String) whenUnsatisfiable!: string;
  @Field(() => JsonScalar, { description: 'Matching bound pods per domain' }) counts!: Record<string, number>;
  @Field(() => Int) skew!: number;
}

@ObjectType('DeschedulingViolation', { description: "A bound pod its own node's filters refuse now" })
export class DeschedulingViolationView {
  @Field(() => String) pod!: string;
  @Field(() => String) node!: string;
  @Field(() => String, { description: 'taint, nodeAffinity, podAffinity or topologySpread' }) kind!: string;
  @Field(() => String) plugin!: string;
  @Field(() => String) reason!: string;
}

@ObjectType('DeschedulingFigures', { description: 'The cluster before or after the descheduling' })
export class DeschedulingFiguresView {
  @Field(() => [DeschedulingNodeView]) nodes!: DeschedulingNodeView[];
  @Field(() => [DeschedulingZoneView]) zones!: DeschedulingZoneView[];
  @Field(() => [DeschedulingSpreadView]) spread!: DeschedulingSpreadView[];
  @Field(() => [DeschedulingViolationView]) violations!: DeschedulingViolationView[];
  @Field(() => [String], { description: 'Pods without a node' }) pending!: string[];
}

@ObjectType('RunDescheduling', { description: "A deschedule run's evictions, rounds and figures" })
export class RunDeschedulingView {
  @Field(() => [DeschedulingEvictionView]) evictions!: DeschedulingEvictionView[];
  @Field(() => [DeschedulingRoundView]) rounds!: DeschedulingRoundView[];
  @Field(() => Boolean, { description: 'The last round run evicted nothing' }) converged!: boolean;
  @Field(() => [DeschedulingOscillationView]) oscillation!: DeschedulingOscillationView[];
  @Field(() => DeschedulingFiguresView) before!: DeschedulingFiguresView;
  @Field(() => DeschedulingFiguresView) after!: DeschedulingFiguresView;
}

function figuresOf(side: Stored['before']): DeschedulingFiguresView {
  return {
    nodes: side.nodes.map((n) => ({
      name: n.name,
      zone: n.zone,
      pods: n.pods,
      cpuRequested: n.cpu.requested,
      cpuAllocatable: n.cpu.allocatable,
      cpuRatio: n.cpu.ratio,
      memoryRequested: n.memory.requested,
      memoryAllocatable: n.memory.allocatable,
      memoryRatio: n.memory.ratio,
    })),
    zones: side.zones.map((z) => ({
      zone: z.zone,
      nodes: z.nodes,
      pods: z.pods,
      cpuRatio: z.cpu.ratio,
      memoryRatio: z.memory.ratio,
    })),
    spread: side.spread,
    violations: side.violations,
    pending: side.pending,
  };
}

const isStored = (analysis: unknown): analysis is Stored =>
  typeof analysis === 'object' &&
  analysis !== null &&
  Array.isArray((analysis as Stored).evictions) &&
  Array.isArray((analysis as Stored).rounds) &&
  typeof (analysis as Stored).before === 'object';

/** The typed view of a deschedule run's stored result; null for other runs. */
export function runDeschedulingOf(analysis: unknown): RunDeschedulingView | null {
  if (!isStored(analysis)) return null;
  return {
    evictions: analysis.evictions,
    rounds: analysis.rounds.map(({ round, now, limits, refused, skipped }) => ({
      round,
      now,
      limits,
      refused,
      ...(skipped ? { skipped } : {}),
    })),
    converged: analysis.converged,
    oscillation: analysis.oscillation,
    before: figuresOf(analysis.before),
    after: figuresOf(analysis.after),
  };
}
