#!/usr/bin/env node
// Runs the CLI's TypeScript sources directly. @swc-node/register compiles each file with SWC as it
// loads and resolves the @schedlab/* aliases from tsconfig.base.json, so `npx schedlab` works right
// after `npm ci` with no build step and no stale dist/ to forget about.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, '..', '..', '..', 'tsconfig.base.json');
require('@swc-node/register');
require('../src/main.ts');
