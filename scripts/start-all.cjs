#!/usr/bin/env node
// Starts the compiled api and one worker (dist/apps/<name>/src/main.js) as child processes, prints
// where everything is once the api listens, and stops both when either exits or on Ctrl-C. Used by
// `npm run up`, which compiles them first (`npm run build`). They run as in production
// (NODE_ENV=production: JSON logs, no stack traces in answers) unless NODE_ENV says otherwise.
const { fork } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const children = [];
let stopping = false;

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV || 'production' };
// Production requires a report-link key so links survive restarts and work across api instances.
// One api on one machine can do with a key for this session: its links end when it stops.
const sessionReportKey =
  env.NODE_ENV === 'production' && !env.SCHEDLAB_REPORT_LINK_SECRET && !env.REPORT_LINK_SECRET;
if (sessionReportKey) env.SCHEDLAB_REPORT_LINK_SECRET = randomBytes(32).toString('hex');

function start(name) {
  const main = path.join(root, 'dist', 'apps', name, 'src', 'main.js');
  if (!fs.existsSync(main)) {
    console.error(
      `${path.relative(root, main)} is missing: run \`npm run build\` (or \`npm run up\`, which builds first).`,
    );
    process.exit(1);
  }
  // Source maps: stack traces name the TypeScript files and lines.
  const child = fork(main, [], { cwd: root, env, execArgv: ['--enable-source-maps'] });
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
      `Schedlab is running, NODE_ENV=${env.NODE_ENV} (Ctrl-C stops api and worker):`,
      `  GraphQL          ${e.graphql}   (subscriptions: graphql-ws on the same URL)`,
      `  REST docs        ${e.restDocs}   (OpenAPI JSON: ${e.openApiJson})`,
      `  Liveness         ${e.healthz}`,
      `  Readiness        ${e.readyz}`,
      ...(sessionReportKey
        ? [
            '',
            '  Report links are signed with a key made for this session (set SCHEDLAB_REPORT_LINK_SECRET to keep them across restarts).',
          ]
        : []),
      '',
    ].join('\n'),
  );
});
start('worker');

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
