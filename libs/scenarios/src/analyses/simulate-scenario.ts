/** "What happens if…": run a scenario, schedule everything pending, report where pods ended up. */
import { podKeyOf } from '@schedlab/k8s';
import type { KubeObject } from '@schedlab/k8s';
import { ScenarioRun, runScenario } from '../scenario/run';
import type { Scenario } from '../scenario/schema';
import { EngineOptions, World } from '../scenario/world';
import { UtilizationReport, utilization } from './utilization';

export interface UnschedulableGroup {
  /** The FitError (or gate/profile error) shared by the pods. */
  reason: string;
  pods: string[];
}

export interface ScenarioOutcome {
  run: ScenarioRun;
  /** pod → node for every bound pod at the end. */
  placements: Record<string, string>;
  pending: string[];
  unschedulable: UnschedulableGroup[];
  utilization: UtilizationReport;
}

export function outcomeOf(world: World): Omit<ScenarioOutcome, 'run'> {
  const placements: Record<string, string> = {};
  const pending: string[] = [];
  const groups = new Map<string, string[]>();
  for (const p of world.pods()) {
    const key = podKeyOf(p);
    if (p.spec?.nodeName) {
      placements[key] = p.spec.nodeName;
      continue;
    }
    pending.push(key);
    const r = world.lastResults.get(key);
    const reason = r?.message ?? r?.error ?? 'not attempted';
    groups.set(reason, [...(groups.get(reason) ?? []), key]);
  }
  const unschedulable = [...groups]
    .map(([reason, pods]) => ({ reason, pods }))
    .sort((a, b) => b.pods.length - a.pods.length || a.reason.localeCompare(b.reason));
  return { placements, pending, unschedulable, utilization: utilization(world.nodes(), world.pods()) };
}

export function simulateScenario(
  items: readonly KubeObject[],
  scenario: Scenario | string | unknown,
  engine: EngineOptions = {},
): ScenarioOutcome {
  const run = runScenario(items, scenario, engine);
  return { run, ...outcomeOf(run.world) };
}
