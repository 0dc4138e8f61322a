import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseKubernetesObjects } from '@schedlab/k8s';
import type { EngineJob } from './engine-job';
import { executeEngineJob } from './engine-task';

/** Simulate runs see the snapshot as a cluster holds it: Immediate claims provisioned first (issue #4). */
describe('engine task: the PV controller runs before scheduling', () => {
  const file = 'immediate-zone-conflict.yaml';
  const items = parseKubernetesObjects(readFileSync(join(__dirname, '../../../examples', file), 'utf8'), {
    source: file,
  }).objects;
  const job = (options: Record<string, unknown>, seed = 0): EngineJob => ({
    runId: 'run-pv-controller',
    type: 'simulate',
    content: gzipSync(JSON.stringify({ items })),
    seed,
    options: { explain: 'summary', ...options },
  });
  const run = (options: Record<string, unknown>, seed?: number) =>
    executeEngineJob(job(options, seed), () => undefined);

  it('provisions the claim in zone a and the zone-b pod is pending with a volume node affinity conflict', () => {
    const out = run({});
    expect(out.placements).toHaveLength(1);
    expect(out.placements[0]).toMatchObject({ podKey: 'shop/orders-db', status: 'unschedulable' });
    // The default release's wording (1.33+; before: "node(s) had volume node affinity conflict").
    expect(out.placements[0].message).toContain("node(s) didn't match PersistentVolume's node affinity");
    const zones = out.storageSummary!.flatMap((c) => c.zones).filter((z) => z.claimedBytes > 0);
    expect(zones.map((z) => z.zone)).toEqual(['eu-west-1a']);
  });

  it("follows the run's seed: seed 1 provisions in zone b and the pod schedules", () => {
    expect(run({}, 1).placements[0]).toMatchObject({
      status: 'scheduled',
      node: 'node-b',
      zone: 'eu-west-1b',
    });
  });

  it('pvController: false schedules the snapshot as stored: the claim is still unbound', () => {
    const out = run({ pvController: false });
    expect(out.placements[0]).toMatchObject({ status: 'unschedulable' });
    expect(out.placements[0].message).toContain('pod has unbound immediate PersistentVolumeClaims');
  });
});
