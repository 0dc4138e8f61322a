/**
 * Writes a benchmark workload as a cluster dump (a v1 List in JSON), the file a user would give
 * `schedlab simulate --cluster`. Used by the whole-process benchmark rows.
 *
 *   node -r @swc-node/register bench/dump.ts <workload> <file.json> [seed]
 */
import { writeFileSync } from 'node:fs';
import { workloadByName } from './workloads';

export function writeWorkloadDump(workload: string, file: string, seed = 1): void {
  const items = workloadByName(workload).build(seed);
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

if (require.main === module) {
  const [workload, file, seed] = process.argv.slice(2);
  if (!workload || !file) {
    console.error('usage: dump.ts <workload> <file.json> [seed]');
    process.exit(1);
  }
  writeWorkloadDump(workload, file, seed === undefined ? 1 : Number(seed));
}
