/**
 * Runs a scenario against a snapshot. The scheduler is live throughout: after every step the
 * taint manager and a scheduling pass run until nothing changes, so later steps see earlier
 * steps' pods rescheduled. An invalid step fails the whole scenario with its index and reason.
 */
import type { KubeObject } from '@schedlab/k8s';
import type { PodSchedulingResult } from '@schedlab/scheduler';
import { hasStorage, type StorageTimeline } from '@schedlab/storage';
import { podGone } from './controllers';
import type { StepDescheduling } from './deschedule-step';
import { StepError } from './nodes';
import { OPERATIONS, OperationContext } from './operations';
import { ScenarioError, parseScenario } from './parse';
import type { Scenario, Step, StepKind } from './schema';
import { runTaintManager } from './taint-manager';
import { Change, EngineOptions, World } from './world';

export interface StepRecord {
  index: number;
  operation: StepKind;
  changes: Change[];
  /** Every scheduling attempt made while the cluster settled after this step. */
  scheduling: PodSchedulingResult[];
  /** A deschedule step: evictions, where each pod went, figures before and after, oscillation. */
  descheduling?: StepDescheduling;
}

export interface ScenarioRun {
  world: World;
  /** Scheduling of the snapshot's own pending pods, before the first step. */
  initial: PodSchedulingResult[];
  steps: StepRecord[];
  /**
   * What the storage controllers did at each step (events in `kubectl describe` words) and the
   * data-loss report at the end; absent when the cluster never had a claim or volume.
   */
  storage?: StorageTimeline;
}

const MAX_SETTLE_ROUNDS = 20;

function settle(world: World, changes: Change[], scheduling: PodSchedulingResult[]): void {
  for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
    runTaintManager(world, changes);
    world.reconcileStorage();
    world.reconcileDeviceClaims();
    const results = world.schedulePending((victim) =>
      podGone(world, victim, 'podDeleted', changes, { reason: 'preempted' }),
    );
    scheduling.push(...results);
    for (const r of results) {
      if (r.node) changes.push({ type: 'podScheduled', object: r.pod, detail: r.node });
      for (const v of r.victims ?? [])
        changes.push({ type: 'podPreempted', object: v, detail: `by ${r.pod}` });
    }
    // Another round only if something was bound or preempted (a freed or newly tainted node).
    const bound = results.some((r) => r.node);
    if (!bound || world.pendingPods().length === 0) {
      for (const r of results)
        if (!r.node && !world.pod(r.pod)?.spec?.nodeName)
          changes.push({ type: 'podUnschedulable', object: r.pod, detail: r.message ?? r.error });
      break;
    }
  }
  // What the last pass freed (claims of pods that went) is released and reclaimed too.
  world.reconcileStorage();
  world.reconcileDeviceClaims();
}

export interface RunOptions {
  /** Schedule the snapshot's pending pods before the first step (default true). */
  scheduleInitialPending?: boolean;
  /** How the workloads' pods were scheduled when the cluster was started: their storage events open the timeline. */
  started?: readonly PodSchedulingResult[];
  /** false: no PV controller between steps (claims are not released, volumes not reclaimed). Default true. */
  pvController?: boolean;
}

export function runScenario(
  items: readonly KubeObject[],
  scenarioInput: Scenario | string | unknown,
  engine: EngineOptions = {},
  opts: RunOptions = {},
): ScenarioRun {
  const scenario = parseScenario(scenarioInput);
  const world = new World(items, engine, opts.pvController ?? true);
  if (opts.started) world.items = world.storage.scheduled(world.items, opts.started, 0, 'initial state');
  const initialChanges: Change[] = [];
  const initial: PodSchedulingResult[] = [];
  if (opts.scheduleInitialPending ?? true) settle(world, initialChanges, initial);
  const steps: StepRecord[] = [];
  let hadStorage = hasStorage(world.items);
  scenario.steps.forEach((step, index) => {
    const operation = Object.keys(step)[0] as StepKind;
    const record: StepRecord = { index, operation, changes: [], scheduling: [] };
    world.storageStep = { step: index + 1, operation: describeStep(step) };
    const ctx: OperationContext = {
      world,
      templates: scenario.nodeTemplates ?? [],
      changes: record.changes,
      settle: () => settle(world, record.changes, record.scheduling),
    };
    try {
      (OPERATIONS[operation] as (args: unknown, c: OperationContext) => void)(
        (step as Record<string, unknown>)[operation],
        ctx,
      );
    } catch (e) {
      if (e instanceof StepError)
        throw new ScenarioError(`steps[${index}].${operation}.${e.field}`, e.detail, index);
      throw new ScenarioError(`steps[${index}].${operation}`, (e as Error).message, index);
    }
    if (ctx.descheduling) record.descheduling = ctx.descheduling;
    ctx.settle();
    hadStorage ||= hasStorage(world.items);
    steps.push(record);
  });
  return {
    world,
    initial,
    steps,
    ...(hadStorage ? { storage: world.storage.timeline(world.items, world.lastResults) } : {}),
  };
}

/** A step as one line for the storage timeline: `deletePVC default/data-web-0`. */
export function describeStep(step: Step): string {
  const [operation, args] = Object.entries(step)[0] as [string, Record<string, unknown>];
  const ns = typeof args.namespace === 'string' ? `${args.namespace}/` : '';
  if (typeof args.name === 'string') {
    const kind = typeof args.kind === 'string' ? `${args.kind} ` : '';
    const replicas =
      typeof args.replicas === 'number'
        ? ` to ${args.replicas}`
        : typeof args.storage === 'string'
          ? ` to ${args.storage}`
          : '';
    return `${operation} ${kind}${ns}${args.name}${replicas}`;
  }
  if (operation === 'setStorageCapacity')
    return `${operation} ${args.storageClass}${args.zone ? ` in ${args.zone}` : ''} to ${args.capacity}`;
  if (typeof args.zone === 'string') return `${operation} ${args.zone}`;
  if (typeof args.seconds === 'number') return `${operation} ${args.seconds}s`;
  if (operation === 'nodeLoss' && Array.isArray(args.nodes)) return `${operation} ${args.nodes.join(', ')}`;
  if (operation === 'setReclaimPolicy') {
    const target = args.storageClass
      ? `StorageClass ${args.storageClass}`
      : `PersistentVolume ${args.volume}`;
    return `${operation} ${target} ${args.reclaimPolicy}`;
  }
  return operation;
}
