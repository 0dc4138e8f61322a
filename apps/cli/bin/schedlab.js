#!/usr/bin/env node
// Runs the compiled CLI, dist/apps/cli/src/main.js (scripts/build.cjs: SWC, @schedlab/* aliases
// rewritten to relative requires). `npm ci` compiles everything (the `prepare` script); on top of
// that, each start compares dist/ with the TypeScript sources of the CLI and the libraries it
// imports (file stats, a few milliseconds) and recompiles what changed first, so an edited source
// or a `git pull` never runs stale code. Without sources (a dist-only copy) it just runs dist/.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..', '..');
const main = () => require(path.join(root, 'dist', 'apps', 'cli', 'src', 'main.js'));

if (!fs.existsSync(path.join(root, 'apps', 'cli', 'src'))) {
  main();
} else {
  require(path.join(root, 'scripts', 'build.cjs'))
    .ensureBuilt('apps/cli', {
      onBuild: (stale) => {
        if (process.stderr.isTTY) {
          const what = stale.map((p) => `${p.projectRoot} (${p.reason})`).join(', ');
          process.stderr.write(`schedlab: compiling ${what}\n`);
        }
      },
    })
    .then(main, (error) => {
      // SWC's syntax errors carry a code frame, then a native backtrace nobody needs.
      const reason = String(error?.message ?? error)
        .split('\n\nStack backtrace:')[0]
        .trimEnd();
      process.stderr.write(`schedlab: could not compile the CLI from its sources:\n${reason}\n`);
      process.exit(1);
    });
}
