import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseKubernetesObjects, type KubeObject, type Pod } from '@schedlab/k8s';
import { ANALYSES, ANALYSIS_TYPES, RUN_OPTIONS, RUN_TYPES, runAnalysis, settleClaims } from './index';

const examples = join(__dirname, '../../../examples');
const objectsOf = (file: string): KubeObject[] =>
  parseKubernetesObjects(readFileSync(join(examples, file), 'utf8')).objects;

describe('the analysis pipeline', () => {
  it('registers every analysis with one interface', () => {
    expect(ANALYSIS_TYPES).toEqual([
      'simulate',
      'scenario',
      'capacity',
      'nodes-needed',
      'resilience',
      'compare',
      'deschedule',
      'timeline',
    ]);
    for (const type of ANALYSIS_TYPES) {
      expect(['settled', 'running']).toContain(ANALYSES[type].start);
      expect(typeof ANALYSES[type].run).toBe('function');
    }
  });

  it('names the run types after the registry (scenario is a simulate run with a scenario), each with its options', () => {
    expect(RUN_TYPES).toEqual([
      'simulate',
      'capacity',
      'nodes-needed',
      'resilience',
      'compare',
      'deschedule',
      'timeline',
    ]);
    expect(Object.keys(RUN_OPTIONS).sort()).toEqual([...RUN_TYPES].sort());
    expect(RUN_OPTIONS.capacity.safeParse({ podTemplate: {}, tieBreek: 'random' }).success).toBe(false);
    expect(RUN_OPTIONS.simulate.parse({ explain: 'full' })).toEqual({ explain: 'compact' });
  });

  it('settles Immediate claims first unless the PV controller is off', () => {
    const objects = objectsOf('immediate-zone-conflict.yaml');
    expect(settleClaims(objects, { seed: 0, pvController: false })).toBe(objects);
    const settled = settleClaims(objects, { seed: 0 });
    expect(settled).not.toBe(objects);
    expect(settled.filter((o) => o.kind === 'PersistentVolume').length).toBeGreaterThan(0);
    const on = runAnalysis('simulate', objects, { seed: 0 }, {});
    const off = runAnalysis('simulate', objects, { seed: 0, pvController: false }, {});
    expect(on.items).toEqual(settled);
    expect(off.items).toBe(objects);
    expect(on.result.result.results[0].message).not.toBe(off.result.result.results[0].message);
  });

  it("starts `running` analyses from the cluster once its workloads' pods run", () => {
    const objects = objectsOf('deployment-only.yaml');
    const outcome = runAnalysis('resilience', objects, { seed: 3 }, { by: 'node' });
    expect(outcome.initial?.length).toBeGreaterThan(0);
    expect(outcome.items.some((o) => o.kind === 'Pod' && (o as unknown as Pod).spec?.nodeName)).toBe(true);
    expect(objects.some((o) => o.kind === 'Pod')).toBe(false);
    expect(outcome.rejected.map((r) => r.object)).toEqual(
      runAnalysis('simulate', objects, { seed: 3 }, {}).result.rejected.map((r) => r.object),
    );
  });

  it('reports per-pod progress on the workloads path, and wraps steps in the hooks', () => {
    const steps: string[] = [];
    const progress: [string, number, number][] = [];
    const outcome = runAnalysis(
      'simulate',
      objectsOf('statefulset-wffc.yaml'),
      { seed: 1 },
      {},
      {
        report: (p) => progress.push([p.phase, p.podsProcessed, p.podsTotal]),
        cluster: (step) => (steps.push('cluster'), step()),
        setup: (step) => (steps.push('setup'), step()),
      },
    );
    expect(steps).toEqual(['cluster', 'setup', 'cluster']);
    const scheduling = progress.filter(([phase]) => phase === 'scheduling');
    expect(scheduling.length).toBe(outcome.result.result.results.length);
    expect(scheduling.at(-1)?.[1]).toBe(outcome.result.result.results.length);
  });
});
