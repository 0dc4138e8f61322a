/**
 * The report of a scenario run: the cluster once the last step settled (nodes, pods where they
 * ended, each pod's latest scheduling attempt), its claims and volumes per zone, the storage
 * timeline and the data-loss report. The CLI (`simulate --report --scenario`) and the service (the
 * API's report of a run with a scenario, recomputed on an engine thread) both draw it from here.
 */
import { podKeyOf } from '@schedlab/k8s';
import { storageReport, type ScenarioRun } from '@schedlab/scenarios';
import { buildRunReport } from './build-report';
import { buildStorageReport } from './build-storage';
import type { ReportRun, ReportStorage } from './report-input';

export interface ScenarioReport {
  run: ReportRun;
  storage?: ReportStorage;
}

export function scenarioReportOf(
  run: ScenarioRun,
  compatibilityVersion: string,
  label: string,
): ScenarioReport {
  const pods = run.world.pods();
  const present = new Set(pods.map(podKeyOf));
  const results = [...run.world.lastResults.values()].filter((r) => present.has(r.pod));
  const storage = buildStorageReport(run.world.items, run.storage?.dataLoss);
  const timeline = storageReport(run)?.timeline;
  return {
    run: buildRunReport({ label, nodes: run.world.nodes(), pods, result: { compatibilityVersion, results } }),
    ...(storage ? { storage: timeline ? { ...storage, timeline } : storage } : {}),
  };
}
