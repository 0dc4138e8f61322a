/** Spawns the real `schedlab` bin, as users run it, for the command specs. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const bin = path.resolve(__dirname, '../../bin/schedlab.js');
export const examples = path.resolve(__dirname, '../../../../examples');
export const example = (...parts: string[]) => path.join(examples, ...parts);

export function schedlab(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
}

/** Runs a command with `-o json`, expecting success and a clean stderr. */
export function schedlabJson<T>(...args: string[]): T {
  const r = schedlab(...args, '-o', 'json');
  if (r.status !== 0) throw new Error(`schedlab ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as T;
}

export function writeTemp(name: string, text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'schedlab-cli-')), name);
  writeFileSync(file, text);
  return file;
}
