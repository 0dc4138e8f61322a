#!/usr/bin/env node
// Writes apps/api/schema.graphql and apps/api/openapi.json from the code; --check only compares
// (exit 1 on drift). Runs the api's TypeScript sources directly (no build needed).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const env = { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.base.json') };
const result = spawnSync(
  process.execPath,
  ['-r', '@swc-node/register', path.join(root, 'apps/api/src/contract.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root, env },
);
process.exit(result.status ?? 1);
