/**
 * Runs a scenario against a snapshot. The scheduler is live throughout: after every step the
 * taint manager and a scheduling pass run until nothing changes, so later steps see earlier
 * steps' pods rescheduled. An invalid step fails the whole scenario with its index and reason.
 */
import type { KubeObject } from '@schedlab/k8s';
import type { PodSchedulingResult } from '@schedlab/scheduler';
import { podGone } from './controllers';
import { StepError } from './nodes';
import { OPERATIONS, OperationContext } from './operations';
import { ScenarioError, parseScenario } from './parse';
import type { Scenario, StepKind } from './schema';
import { runTaintManager } from './taint-manager';
import { Change, EngineOptions, World } from './world';

export interface StepRecord {
  index: number;
  operation: StepKind;
  changes: Change[];
  /** Every scheduling attempt made while the cluster settled after this step. */
  scheduling: PodSchedulingResult[];
}

export interface ScenarioRun {
  world: World;
  /** Scheduling of the snapshot's own pending pods, before the first step. */
  initial: PodSchedulingResult[];
  steps: StepRecord[];
}

const MAX_SETTLE_ROUNDS = 20;

function settle(world: World, changes: Change[], scheduling: PodSchedulingResult[]): void {
  for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
    runTaintManager(world, changes);
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
}

export interface RunOptions {
  /** Schedule the snapshot's pending pods before the first step (default true). */
  scheduleInitialPending?: boolean;
}

export function runScenario(
  items: readonly KubeObject[],
  scenarioInput: Scenario | string | unknown,
  engine: EngineOptions = {},
  opts: RunOptions = {},
): ScenarioRun {
  const scenario = parseScenario(scenarioInput);
  const world = new World(items, engine);
  const initialChanges: Change[] = [];
  const initial: PodSchedulingResult[] = [];
  if (opts.scheduleInitialPending ?? true) settle(world, initialChanges, initial);
  const steps: StepRecord[] = [];
  scenario.steps.forEach((step, index) => {
    const operation = Object.keys(step)[0] as StepKind;
    const record: StepRecord = { index, operation, changes: [], scheduling: [] };
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
    ctx.settle();
    steps.push(record);
  });
  return { world, initial, steps };
}
