/**
 * The scenario step `deschedule`: a DeschedulerPolicy runs against the world as it is at this
 * step (analyses/deschedule.ts: evictions, controllers' replacements scheduled by the engine),
 * and the world continues from the cluster it leaves.
 */
import { parsePolicy, PolicyError } from '@schedlab/descheduler';
import type * as Yaml from 'yaml';
import { deschedule, snapshotClock, type DeschedulingReport } from '../analyses/deschedule';
import { runDescheduler } from '../analyses/descheduler-runner';
import { StepError } from './nodes';
import type { StepArgs } from './schema';
import type { OperationContext } from './operations';

/** What a scenario records of a deschedule step: the report without the cluster it leaves. */
export type StepDescheduling = Omit<DeschedulingReport, 'items'>;

/** The scenario's clock as a time: the cluster's newest timestamp, or its pods' creation time base plus advanceTime. */
const SCENARIO_EPOCH = Date.parse('2030-01-01T00:00:00Z');

function policyOf(args: StepArgs['deschedule']): unknown {
  if (args.policyFile !== undefined && args.policy === undefined)
    throw new StepError('policyFile', 'a policy file is read by the CLI (schedlab); send the policy inline');
  if (args.policy === undefined) throw new StepError('policy', 'Required: a DeschedulerPolicy');
  if (typeof args.policy !== 'string') return args.policy;
  try {
    return (require('yaml') as typeof Yaml).parse(args.policy); // loaded only when a policy is text
  } catch (e) {
    throw new StepError('policy', `invalid YAML/JSON: ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * Reads the step's policy as the descheduler would, when it is inline (a `policyFile` is checked
 * once the CLI has read it): a scenario with a bad policy is refused before it runs.
 */
export function checkDeschedulePolicy(args: StepArgs['deschedule']): void {
  if (args.policy === undefined) return;
  try {
    parsePolicy(policyOf(args));
  } catch (error) {
    if (error instanceof PolicyError) throw new StepError('policy', error.message);
    throw error;
  }
}

export function descheduleStep(args: StepArgs['deschedule'], ctx: OperationContext): StepDescheduling {
  const { world, changes } = ctx;
  const policy = policyOf(args);
  const now = args.now ?? Math.max(snapshotClock(world.items), SCENARIO_EPOCH + world.clock * 1000);
  let outcome: DeschedulingReport;
  try {
    outcome = deschedule(
      world.items,
      { policy, rounds: args.rounds, now, intervalSeconds: args.intervalSeconds },
      world.engine,
      world.engineSetup(),
      runDescheduler,
    );
  } catch (error) {
    // The message names the policy's profile, plugin and field.
    if (error instanceof PolicyError) throw new StepError('policy', error.message);
    throw error;
  }
  const { items, ...report } = outcome;
  world.items = items;
  for (const e of report.evictions) {
    changes.push({
      type: 'podEvicted',
      object: e.pod,
      detail: `from ${e.oldNode}: ${e.strategy}${e.reason !== e.strategy ? ` (${e.reason})` : ''}, round ${e.round}`,
    });
    if (e.outcome === 'lost') {
      changes.push({ type: 'podLost', object: e.pod, detail: 'no controller recreates a bare pod' });
      continue;
    }
    changes.push({ type: 'podRecreated', object: e.replacement!, detail: `by ${e.owner}, for ${e.pod}` });
    if (e.newNode) changes.push({ type: 'podScheduled', object: e.replacement!, detail: e.newNode });
    else changes.push({ type: 'podUnschedulable', object: e.replacement!, detail: e.fitError });
  }
  return report;
}
