import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CaseReport, GoldenCase, replayCase } from '@schedlab/conformance';

/** Golden case files under the given files and directories (recursively), sorted for stable output. */
export function collectCaseFiles(inputs: readonly string[]): string[] {
  const files: string[] = [];
  const visit = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const entry of readdirSync(p).sort()) visit(path.join(p, entry));
    } else if (p.endsWith('.json')) {
      files.push(p);
    }
  };
  for (const input of inputs) visit(input);
  return files;
}

function describeValue(v: unknown): string {
  return v === undefined ? '(absent)' : JSON.stringify(v);
}

export function formatReport(file: string, r: CaseReport): string[] {
  if (r.exact) return [];
  if (r.error) return [`MISMATCH ${file} (${r.name}): engine error: ${r.error}`];
  return r.mismatches.map(
    (m) =>
      `MISMATCH ${file} (${r.name}) ${m.subject}: ${m.difference.path}: expected ${describeValue(m.difference.expected)}, got ${describeValue(m.difference.actual)}`,
  );
}

export interface ConformanceSummary {
  exact: number;
  total: number;
}

/** Replays every case and writes one line per mismatch, then the closing tally. */
export function runConformanceFiles(
  files: readonly string[],
  write: (line: string) => void,
): ConformanceSummary {
  let exact = 0;
  for (const file of files) {
    let golden: GoldenCase;
    try {
      golden = JSON.parse(readFileSync(file, 'utf8')) as GoldenCase;
    } catch (err) {
      write(`MISMATCH ${file}: not a readable golden case: ${(err as Error).message}`);
      continue;
    }
    if (!golden || typeof golden !== 'object' || !('expected' in golden) || !('input' in golden)) {
      write(`MISMATCH ${file}: not a golden case (needs "input" and "expected")`);
      continue;
    }
    const report = replayCase(golden);
    if (report.exact) exact++;
    for (const line of formatReport(file, report)) write(line);
  }
  write(`conformance: ${exact}/${files.length} cases exact`);
  return { exact, total: files.length };
}

export function registerConformanceCommand(program: Command): void {
  program
    .command('conformance')
    .description('replay golden kube-scheduler cases and compare every decision exactly')
    .argument('<file-or-dir...>', 'golden case files, or directories searched recursively for *.json')
    .action((inputs: string[]) => {
      const files = collectCaseFiles(inputs);
      if (files.length === 0) throw new Error(`no golden case files found under ${inputs.join(', ')}`);
      const summary = runConformanceFiles(files, (line) => process.stdout.write(`${line}\n`));
      if (summary.exact !== summary.total) process.exitCode = 1;
    });
}
