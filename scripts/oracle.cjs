#!/usr/bin/env node
// npm run oracle -- --release 1.34.4 --in DIR|FILE --out DIR [--build-only]
//
// Builds tools/oracle (Go) against the pinned upstream release and records
// golden files with it. The binary is cached in tmp/oracle/bin (outside git)
// and rebuilt when the oracle's sources or the release's module file change.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const oracleDir = path.join(root, 'tools', 'oracle');
const releasesDir = path.join(oracleDir, 'releases');
const binDir = path.join(root, 'tmp', 'oracle', 'bin');

function releases() {
  return fs
    .readdirSync(releasesDir)
    .filter((f) => /^v\d+\.\d+\.\d+\.mod$/.test(f))
    .map((f) => f.slice(1, -4))
    .sort();
}

function usage(code) {
  console.error(
    `usage: npm run oracle -- --release <${releases().join('|')}> --in DIR|FILE --out DIR [--build-only]`,
  );
  process.exit(code);
}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--build-only') args.buildOnly = true;
    else if (a === '--release' || a === '--in' || a === '--out') args[a.slice(2)] = argv[++i];
    else if (a === '--help' || a === '-h') usage(0);
    else {
      console.error(`unknown argument: ${a}`);
      usage(2);
    }
  }
  return args;
}

function haveGo() {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  return r.status === 0;
}

function newestMtime(files) {
  return Math.max(...files.map((f) => fs.statSync(f).mtimeMs));
}

/** Builds (if needed) and returns the path of the oracle binary for a release. */
function ensureBinary(release, log = console.error) {
  const modfile = path.join(releasesDir, `v${release}.mod`);
  if (!fs.existsSync(modfile)) {
    throw new Error(`release ${release} is not pinned (have: ${releases().join(', ')})`);
  }
  const minor = release.split('.').slice(0, 2).join('_');
  const bin = path.join(binDir, `oracle-v${release}`);
  const sources = fs
    .readdirSync(oracleDir)
    .filter((f) => f.endsWith('.go') || f === 'go.mod')
    .map((f) => path.join(oracleDir, f));
  sources.push(modfile, modfile.replace(/\.mod$/, '.sum'));
  if (fs.existsSync(bin) && fs.statSync(bin).mtimeMs >= newestMtime(sources.filter(fs.existsSync))) {
    return bin;
  }
  fs.mkdirSync(binDir, { recursive: true });
  log(`oracle: building for Kubernetes v${release} (first build can take 15 minutes) ...`);
  const started = Date.now();
  const r = spawnSync('go', ['build', `-modfile=${modfile}`, `-tags=k8s_${minor}`, '-o', bin, '.'], {
    cwd: oracleDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`go build failed for v${release}`);
  log(`oracle: built in ${Math.round((Date.now() - started) / 1000)} s: ${path.relative(root, bin)}`);
  return bin;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.release) usage(2);
  if (!haveGo()) {
    console.error(
      'oracle: the `go` command was not found on PATH. The oracle is a Go program that imports the\n' +
        'upstream scheduler; install Go 1.24 or newer (https://go.dev/dl/), make sure `go version` works,\n' +
        'and run this command again. Modules come from the Go module proxy (GOPROXY).',
    );
    process.exit(2);
  }
  const release = args.release.replace(/^v/, '');
  let bin;
  try {
    bin = ensureBinary(release);
  } catch (e) {
    console.error(`oracle: ${e.message}`);
    process.exit(1);
  }
  if (args.buildOnly) {
    console.log(bin);
    return;
  }
  if (!args.in || !args.out) usage(2);
  const r = spawnSync(bin, ['--in', path.resolve(args.in), '--out', path.resolve(args.out)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

module.exports = { ensureBinary, haveGo, releases };

if (require.main === module) main();
