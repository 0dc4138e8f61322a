/**
 * The documented storage what-ifs (docs/storage-what-ifs.md, examples/scenarios/storage-*.yaml on
 * examples/storage-lifecycle.yaml) from both places users meet them: `schedlab simulate
 * --scenario` and a worker's scenario run (the stored RunResult.analysis.storage). Both go through
 * the one pipeline and must report the same timeline and data loss.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import type { StorageReport } from '@schedlab/scenarios';
import { executeEngineJob } from '@schedlab/runs';
import { loadClusterDump } from '../input/cluster-dump';
import { example, schedlab, schedlabJson } from '../testing/cli';

const cluster = example('storage-lifecycle.yaml');

function fromCli(scenarioFile: string): StorageReport {
  const doc = schedlabJson<{ scenario: { storage: StorageReport } }>(
    'simulate',
    '--cluster',
    cluster,
    '--scenario',
    scenarioFile,
    '--seed',
    '0',
  );
  return doc.scenario.storage;
}

function fromWorker(scenarioFile: string): StorageReport {
  const items = loadClusterDump(cluster).objects;
  const output = executeEngineJob(
    {
      runId: 'storage-what-ifs',
      type: 'simulate',
      content: gzipSync(JSON.stringify({ items })),
      seed: 0,
      options: {},
      scenario: parseYaml(readFileSync(scenarioFile, 'utf8')),
    },
    () => undefined,
  );
  return JSON.parse(JSON.stringify((output.analysis as { storage: StorageReport }).storage));
}

const claimsOf = (fates: readonly { claim: string }[]) => fates.map((f) => f.claim).sort();

describe.each([
  [
    'storage-delete-namespace.yaml',
    (r: StorageReport) => {
      expect(claimsOf(r.dataLoss.destroyed)).toEqual([
        'shop/data-orders-0',
        'shop/data-orders-1',
        'shop/data-orders-2',
      ]);
      expect(r.dataLoss.destroyed.every((f) => f.reclaimPolicy === 'Delete')).toBe(true);
      expect(claimsOf(r.dataLoss.retained)).toEqual([
        'ledger/data-ledger-0',
        'ledger/data-ledger-1',
        'ledger/data-ledger-2',
      ]);
      expect(r.dataLoss.retained.every((f) => f.reclaimPolicy === 'Retain')).toBe(true);
      expect(r.dataLoss.stranded).toEqual([]);
    },
  ],
  [
    'storage-scale-down.yaml',
    (r: StorageReport) => {
      expect(claimsOf(r.dataLoss.destroyed)).toEqual(['shop/data-orders-1', 'shop/data-orders-2']);
      expect(r.dataLoss.retained).toEqual([]);
      // ledger's claims were kept through the scale-down: none of them changed phase.
      const ledgerClaims = r.timeline
        .filter((s) => s.index !== null)
        .flatMap((s) => s.transitions)
        .filter((t) => t.object.startsWith('PersistentVolumeClaim/ledger/'));
      expect(ledgerClaims).toEqual([]);
    },
  ],
  [
    'storage-zone-outage.yaml',
    (r: StorageReport) => {
      expect(r.dataLoss.stranded.map((s) => [s.claim, s.zone, s.pods])).toEqual([
        ['ledger/data-ledger-1', 'eu-west-1b', ['ledger/ledger-1']],
        ['shop/data-orders-1', 'eu-west-1b', ['shop/orders-1']],
      ]);
      expect(r.dataLoss.destroyed).toEqual([]);
      expect(r.dataLoss.retained).toEqual([]);
    },
  ],
])('examples/scenarios/%s', (file, expectReport) => {
  const scenarioFile = example('scenarios', file);

  it('reports the same storage timeline and data loss from the CLI and a worker run', () => {
    const cli = fromCli(scenarioFile);
    expectReport(cli);
    expect(fromWorker(scenarioFile)).toEqual(cli);
  });

  it('prints the storage timeline and the data-loss table', () => {
    const r = schedlab('simulate', '--cluster', cluster, '--scenario', scenarioFile, '--seed', '0');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('\nStorage timeline\n');
    expect(r.stdout).toMatch(/\nData loss\nFATE +VOLUME +CLAIM +CLASS +CAPACITY +ZONE +POLICY +WHY\n/);
  });
});
