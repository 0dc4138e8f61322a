#!/usr/bin/env node
// `npm run bench [-- workload… --json file]`: the engine benchmarks (bench/run.ts) from TypeScript
// sources, with the @schedlab/* aliases resolved, like the apps.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const result = spawnSync(
  process.execPath,
  ['-r', '@swc-node/register', path.join(root, 'bench', 'run.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root, env: { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.base.json') } },
);
process.exit(result.status ?? 1);
