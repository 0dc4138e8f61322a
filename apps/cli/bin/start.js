// The `schedlab` bin's work (schedlab.js starts Node and loads this file): runs the compiled CLI,
// dist/apps/cli/src/main.js (scripts/build.cjs: SWC, @schedlab/* aliases
// rewritten to relative requires). `npm ci` compiles everything (the `prepare` script); on top of
// that, each start compares dist/ with the TypeScript sources of the CLI and the libraries it
// imports (a stat per source file and folder) and recompiles what changed first, so
// an edited source or a `git pull` never runs stale code. Without sources (a dist-only copy) it
// just runs dist/.
const fs = require('node:fs');
const path = require('node:path');

/**
 * Node's on-disk compile cache (Node 22.1+), in the OS temp directory as Node's default: later
 * starts skip compiling the CLI's few hundred modules. Entries are checked against each file's
 * content, so a rebuilt dist/ never runs from a stale entry. NODE_COMPILE_CACHE (Node enables it
 * itself) and NODE_DISABLE_COMPILE_CACHE are left to Node. The directory is checked here first,
 * as a plain mkdir: Node's own recursive mkdir never returns on some unwritable places (/proc).
 */
function enableCompileCache() {
  const { enableCompileCache: enable } = require('node:module');
  if (!enable || process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const dir = path.join(require('node:os').tmpdir(), 'node-compile-cache');
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    try {
      fs.mkdirSync(dir);
    } catch {
      return; // an optimisation only
    }
  }
  try {
    enable(dir);
  } catch {
    // same: run without it
  }
}
enableCompileCache();

/**
 * zod's core loads its 60-odd message locales at start-up (a tenth of the CLI's module loading),
 * while zod words its messages with English, loaded apart, and Schedlab asks for no other. The
 * locales module is registered as a stand-in that loads the real one on first use.
 */
function deferZodLocales() {
  let file;
  try {
    file = require.resolve('zod/v4/locales');
  } catch {
    return; // a zod without that entry: nothing to defer
  }
  if (require.cache[file]) return;
  let real;
  const load = () => {
    if (!real) {
      delete require.cache[file];
      real = require(file);
    }
    return real;
  };
  const standIn = new (require('node:module'))(file, module);
  standIn.filename = file;
  standIn.loaded = true;
  standIn.exports = new Proxy(
    {},
    {
      // An ES module's namespace as TypeScript's interop sees it: no load to answer that.
      get: (_, key) => (key === '__esModule' ? true : load()[key]),
      has: (_, key) => key in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  );
  require.cache[file] = standIn;
}
deferZodLocales();

const root = path.resolve(__dirname, '..', '..', '..');
const main = () => require(path.join(root, 'dist', 'apps', 'cli', 'src', 'main.js'));

const build = () => require(path.join(root, 'scripts', 'build.cjs'));

/**
 * Runs the CLI from the command's pack (scripts/cli-pack.cjs: its modules in one file, written
 * from dist/ when missing or out of date), or from dist/ when there is none to be had.
 */
function run() {
  const packs = require(path.join(root, 'scripts', 'cli-pack.cjs'));
  const { distRoot, lazyProjectRoots } = build();
  const pack = packs.packFor(distRoot, process.argv[2], lazyProjectRoots());
  if (pack) packs.runPack(distRoot, pack);
  else main();
}

// Fresh, the CLI loads while this module runs (within the evaluation of the main module, the bin,
// that requires it): Node keeps module stats in a cache only during the main module's evaluation,
// not for a require from a later callback (~300 stats fewer).
if (!fs.existsSync(path.join(root, 'apps', 'cli', 'src'))) {
  main(); // a dist-only copy: nothing to check dist/ or a pack against
} else if (build().staleProjects('apps/cli').length === 0) {
  run();
} else {
  build()
    .ensureBuilt('apps/cli', {
      onBuild: (stale) => {
        if (process.stderr.isTTY) {
          const what = stale.map((p) => `${p.projectRoot} (${p.reason})`).join(', ');
          process.stderr.write(`schedlab: compiling ${what}\n`);
        }
      },
    })
    .then(run, (error) => {
      // SWC's syntax errors carry a code frame, then a native backtrace nobody needs.
      const reason = String(error?.message ?? error)
        .split('\n\nStack backtrace:')[0]
        .trimEnd();
      process.stderr.write(`schedlab: could not compile the CLI from its sources:\n${reason}\n`);
      process.exit(1);
    });
}
