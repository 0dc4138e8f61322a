import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createProgram } from './program';

/**
 * The CLI ships with the workspace, so its version is the workspace's: the nearest package.json
 * above this file, whether it runs compiled (dist/apps/cli/src) or from sources (apps/cli/src).
 */
function workspaceVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dir === path.dirname(dir)) throw new Error(`no package.json above ${__dirname}`);
  }
}

createProgram({ version: workspaceVersion(), argv: process.argv })
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`schedlab: ${(error as Error).message}\n`);
    process.exit(1);
  });
