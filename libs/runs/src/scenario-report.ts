/**
 * The HTML report of a run with a scenario, recomputed: its stored placements cannot give the
 * cluster the steps left behind (nodes lost or added, pods moved, claims and volumes changed), so
 * the run's snapshot, scenario, options, profile and seed go through the pipeline again, as the
 * worker ran them, and the report is drawn from the resulting world by @schedlab/report's
 * scenarioReportOf, the CLI's `simulate --report --scenario` code. Runs on an engine thread.
 */
import { runAnalysis } from '@schedlab/analysis';
import { scenarioReportOf, type ScenarioReport } from '@schedlab/report';
import type { EngineJob } from './engine-job';
import { analysisOptions, loadSnapshotItems, ReplayUnavailableError } from './engine-task';

export function replayScenarioReport(job: EngineJob, label: string): ScenarioReport {
  if (job.type !== 'simulate' || job.scenario === undefined) {
    throw new ReplayUnavailableError(
      'replay_unavailable',
      'scenario reports are recomputed for simulate runs with a scenario',
    );
  }
  const outcome = runAnalysis('scenario', loadSnapshotItems(job.content), analysisOptions(job), {
    scenario: job.scenario,
  });
  return scenarioReportOf(outcome.result.run, outcome.compatibilityVersion, label);
}
