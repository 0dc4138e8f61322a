#!/usr/bin/env node
// Starts the compiled api and one worker (dist/apps/<name>/src/main.js) as child processes, prints
// where everything is once the api listens, and stops both when either exits or on Ctrl-C. Used by
// `npm run up`, which compiles them first (`npm run build`).
const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const children = [];
let stopping = false;

function start(name) {
  const main = path.join(root, 'dist', 'apps', name, 'src', 'main.js');
  if (!fs.existsSync(main)) {
    console.error(
      `${path.relative(root, main)} is missing: run \`npm run build\` (or \`npm run up\`, which builds first).`,
    );
    process.exit(1);
  }
  // Source maps: stack traces name the TypeScript files and lines.
  const child = fork(main, [], { cwd: root, execArgv: ['--enable-source-maps'] });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`\n${name} exited (${signal ?? code}); stopping the others.`);
      stopAll(code || 1);
    }
  });
  children.push(child);
  return child;
}

function stopAll(exitCode) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(
    () => process.exit(exitCode),
  );
}

start('api').on('message', (message) => {
  if (message?.type !== 'api-listening') return;
  const e = message.endpoints;
  console.log(
    [
      '',
      'Schedlab is running (Ctrl-C stops api and worker):',
      `  GraphQL          ${e.graphql}   (subscriptions: graphql-ws on the same URL)`,
      `  REST docs        ${e.restDocs}   (OpenAPI JSON: ${e.openApiJson})`,
      `  Liveness         ${e.healthz}`,
      `  Readiness        ${e.readyz}`,
      '',
    ].join('\n'),
  );
});
start('worker');

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
