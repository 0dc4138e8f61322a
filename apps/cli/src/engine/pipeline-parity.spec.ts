/**
 * The CLI and the worker run one analysis pipeline (@schedlab/analysis): for the same dump, seed
 * and options they give the same result. The CLI side runs as `schedlab` does (files read, errors
 * attributed); the worker side as an engine thread does (a stored snapshot, a job's options).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { executeEngineJob, type EngineJob, type EngineProgress } from '@schedlab/runs';
import { placementMessage } from '@schedlab/scheduler';
import { examples, example } from '../testing/cli';
import { loadClusterDump } from '../input/cluster-dump';
import { analyzeDump } from './analysis-input';
import { runSimulation, type SimulationFlags } from './run-simulation';

const dumps = readdirSync(examples).filter((f) => f.endsWith('.yaml'));
const webPod = parseYaml(readFileSync(example('templates/web-pod.yaml'), 'utf8'));
const templates = (
  parseYaml(readFileSync(example('templates/node-templates.yaml'), 'utf8')) as { templates: [] }
).templates;
const drainZone = parseYaml(readFileSync(example('scenarios/drain-zone.yaml'), 'utf8'));
const lowNodeUtilization = parseYaml(
  readFileSync(example('descheduler/low-node-utilization-policy.yaml'), 'utf8'),
) as unknown;

const flagsOf = (file: string, seed: number, pvController = true): SimulationFlags => ({
  cluster: example(file),
  seed,
  compatibilityVersion: '1.37',
  tieBreak: 'random',
  pvController,
});

/** The job the API would store for the dump: the same objects, gzip'd, and the options. */
function jobOf(
  file: string,
  seed: number,
  type: EngineJob['type'],
  options: Record<string, unknown> = {},
  scenario?: unknown,
): EngineJob {
  const items = loadClusterDump(example(file)).objects;
  return { runId: 'parity', type, content: gzipSync(JSON.stringify({ items })), seed, options, scenario };
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe.each(dumps)('the CLI and the worker agree on %s', (file) => {
  it.each([
    [0, true],
    [7, true],
    [7, false],
  ])('simulate, seed %d, PV controller %s', (seed, pvController) => {
    const progress: [number, number][] = [];
    const cli = runSimulation(flagsOf(file, seed, pvController), (done, total) =>
      progress.push([done, total]),
    );
    const phases: EngineProgress[] = [];
    const worker = executeEngineJob(
      jobOf(file, seed, 'simulate', pvController ? {} : { pvController: false }),
      (p) => phases.push(p),
    );

    const rows = worker.placements.filter((p) => !p.message?.startsWith('admission rejected: '));
    expect(rows.map((p) => [p.podKey, p.node, p.status, p.message, p.nominatedNode, p.victims])).toEqual(
      cli.result.results.map((r) => [
        r.pod,
        r.node,
        r.outcome === 'no-profile' ? 'error' : r.outcome,
        placementMessage(r),
        r.nominatedNode ?? null,
        r.victims?.length ? r.victims : null,
      ]),
    );
    const {
      unschedulableReasons: _reasons,
      utilization: _utilization,
      rejected,
      orphanPods,
      unmodelledKinds,
      preempting,
      devices,
      ...counts
    } = worker.summary;
    expect(devices).toEqual(cli.result.devices);
    expect(counts).toEqual(cli.result.summary);
    // The service's summary adds the pods that got their node by preempting.
    expect(preempting).toBe(cli.result.results.filter((r) => r.nominatedNode).length);
    expect(orphanPods).toEqual(cli.result.orphanPods);
    expect(unmodelledKinds).toEqual(cli.result.unmodelledKinds);
    expect(rejected ?? []).toEqual(cli.rejected);
    expect(worker.engineVersion).toBe(cli.result.compatibilityVersion);
    // Both report progress per pod, on the workloads path too.
    const scheduling = phases
      .filter((p) => p.phase === 'scheduling')
      .map((p) => [p.podsProcessed, p.podsTotal]);
    expect(scheduling).toEqual(progress);
    if (cli.result.results.length) expect(progress.at(-1)![0]).toBe(cli.result.results.length);
  });

  it('capacity, nodes-needed, resilience, compare and deschedule', () => {
    const seed = 7;
    const flags = flagsOf(file, seed);
    const analysisOf = (type: EngineJob['type'], options: Record<string, unknown>, scenario?: unknown) => {
      try {
        return json(executeEngineJob(jobOf(file, seed, type, options, scenario), () => undefined).analysis);
      } catch (error) {
        return (error as Error).message;
      }
    };
    // The CLI names the file an error comes from; the message is the same.
    const cliOf = (run: () => unknown) => {
      try {
        return json(run());
      } catch (error) {
        return (error as Error).message.replace(`${flags.cluster}: `, '');
      }
    };
    expect(analysisOf('capacity', { podTemplate: webPod, maxReplicas: 50 })).toEqual(
      cliOf(() => analyzeDump(flags, 'capacity', { podTemplate: webPod, maxReplicas: 50 }).outcome.result),
    );
    expect(analysisOf('nodes-needed', { templates })).toEqual(
      cliOf(() => analyzeDump(flags, 'nodes-needed', { templates }).outcome.result),
    );
    for (const by of ['node', 'zone'] as const) {
      expect(analysisOf('resilience', { by })).toEqual(
        cliOf(() => analyzeDump(flags, 'resilience', { by }).outcome.result.result),
      );
    }
    expect(analysisOf('compare', {}, drainZone)).toEqual(
      cliOf(() => analyzeDump(flags, 'compare', { scenario: drainZone }).outcome.result),
    );
    // The worker stores the descheduling report without the cluster it ends with, as the CLI prints it.
    const request = { policy: lowNodeUtilization, rounds: 2 };
    expect(analysisOf('deschedule', request)).toEqual(
      cliOf(() => {
        const { items: _after, ...report } = analyzeDump(flags, 'deschedule', request).outcome.result;
        return report;
      }),
    );
  });
});
