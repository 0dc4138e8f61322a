import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createProgram } from './program';

// The CLI ships with the workspace, so its version is the workspace's.
const rootPackage = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
  version: string;
};

createProgram({ version: rootPackage.version })
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`schedlab: ${(error as Error).message}\n`);
    process.exit(1);
  });
