/**
 * Writes a benchmark workload as a cluster dump (a v1 List in JSON), the file a user would give
 * `schedlab simulate --cluster`. Used by the whole-process benchmark rows.
 *
 *   node -r @swc-node/register bench/dump.ts <workload> <file.json> [seed] [maxPending]
 */
import { writeFileSync } from 'node:fs';
import { workloadByName } from './workloads';

/**
 * Writes the workload's dump; with `maxPending`, only its first maxPending pending pods (pods
 * without spec.nodeName, in list order) are kept, everything else as generated.
 */
export function writeWorkloadDump(workload: string, file: string, seed = 1, maxPending?: number): void {
  let items = workloadByName(workload).build(seed);
  if (maxPending !== undefined) {
    let pending = 0;
    items = items.filter(
      (o) =>
        o.kind !== 'Pod' ||
        Boolean((o as { spec?: { nodeName?: string } }).spec?.nodeName) ||
        pending++ < maxPending,
    );
  }
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

if (require.main === module) {
  const [workload, file, seed, maxPending] = process.argv.slice(2);
  if (!workload || !file) {
    console.error('usage: dump.ts <workload> <file.json> [seed] [maxPending]');
    process.exit(1);
  }
  writeWorkloadDump(
    workload,
    file,
    seed === undefined ? 1 : Number(seed),
    maxPending === undefined ? undefined : Number(maxPending),
  );
}
