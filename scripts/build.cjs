#!/usr/bin/env node
/**
 * Compiles a project's TypeScript sources to CommonJS with SWC: <root>/src/a/b.ts becomes
 * dist/<root>/src/a/b.js (and b.js.map). dist/ mirrors the source tree, so SWC rewrites the
 * @schedlab/* aliases of tsconfig.base.json into relative requires and plain `node dist/...` runs
 * with no register hook. Relative imports compile to the exact file (`./a/b.js`, a folder's
 * `index.js`): Node then finds each module with one stat instead of probing the path, its
 * extensions and a package.json first (hundreds of modules at every CLI start). Output keeps no
 * comments or layout (names and code as written; source maps lead back to the TypeScript).
 * Decorators and their metadata compile as tsc would with experimentalDecorators +
 * emitDecoratorMetadata (NestJS needs both), with the settings the apps used under
 * @swc-node/register (ES2022, define semantics for class fields, class names kept). Nothing is
 * type-checked here: that is `npm run typecheck` (tsc), which CI runs.
 *
 * Specs, `__tests__/` and `testing/` folders (test helpers) are not compiled: tests run from the
 * TypeScript sources under Jest.
 *
 * A project's build ends by writing dist/<root>/build-stamp.json: the size, mtime and hash of
 * every source it compiled and the @schedlab projects those sources import. `staleProjects`
 * compares stamps with the sources (stat only; a file whose stat changed is hashed, so a checkout
 * that only touches files costs no rebuild) and `ensureBuilt` rebuilds what is stale. The
 * `schedlab` bin calls it at every start, so it never runs code older than its sources.
 *
 *   node scripts/build.cjs <projectRoot>...          compile these projects (the Nx `build` targets)
 *   node scripts/build.cjs --stale <projectRoot>...  compile them and what they import, where stale
 */
const fs = require('node:fs');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '..');
const distRoot = path.join(workspaceRoot, 'dist');
const STAMP = 'build-stamp.json';
const ALIAS_IMPORT = /['"](@schedlab\/[\w-]+)['"]/g;

let cachedPaths;
/** tsconfig.base.json's path aliases: '@schedlab/k8s' → ['libs/k8s/src/index.ts']. */
function tsconfigPaths() {
  cachedPaths ??= readJson(path.join(workspaceRoot, 'tsconfig.base.json')).compilerOptions.paths;
  return cachedPaths;
}

let cachedAliases;
/** '@schedlab/k8s' → 'libs/k8s'. */
function aliases() {
  cachedAliases ??= new Map(
    Object.entries(tsconfigPaths()).map(([alias, [target]]) => [
      alias,
      target.replace(/\/src\/index\.ts$/, ''),
    ]),
  );
  return cachedAliases;
}

/**
 * Libraries whose imports compile to a require on first use instead of at load: the scenario
 * machinery and the descheduler (with their zod schemas), which `simulate`, `explain` and the
 * worker's plain runs never call but reach through @schedlab/analysis's registry. Their modules
 * only define things, so when they load does not change what they do.
 */
const LAZY_IMPORTS = ['@schedlab/scenarios', '@schedlab/descheduler'];

/** The project roots of LAZY_IMPORTS ('libs/scenarios', …): CLI packs leave them out. */
const lazyProjectRoots = () => LAZY_IMPORTS.map((alias) => aliases().get(alias));

function swcOptions(file) {
  return {
    filename: file,
    swcrc: false,
    configFile: false,
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      keepClassNames: true,
      baseUrl: workspaceRoot,
      paths: tsconfigPaths(),
      // Without comments and layout (names and code untouched: no compression, no mangling), each
      // start reads, checksums (the compile cache) and scans a third of the bytes; the source maps
      // still lead to the TypeScript.
      minify: { compress: false, mangle: false, format: { comments: false } },
      // Non-ASCII characters (a few arrows and ellipses in messages) as escapes: one such
      // character makes V8 hold a whole CLI pack as a two-byte string, and read it through a
      // slower decode, at every start.
      output: { charset: 'ascii' },
    },
    minify: true,
    module: { type: 'commonjs', lazy: LAZY_IMPORTS, resolveFully: true },
    sourceMaps: true,
  };
}

let cachedKey;
/**
 * Changes whenever compiled output could: this script, the aliases, the SWC version. A plain
 * JavaScript hash: node:crypto costs ~20 ms to load. A start computes it only when one of its
 * inputs' size or mtime differs from the stamp's (keyInputsUnchanged).
 */
function compilerKey() {
  return keyAndInputs().key;
}

/**
 * The compiler key and the [workspace-relative path, size, mtimeMs] of each of its inputs (this
 * script, tsconfig.base.json, @swc/core's package.json), stat'ed before they are read: a stamp
 * records those, so an input edited meanwhile differs from the record and the key is recomputed.
 */
function keyAndInputs() {
  if (!cachedKey) {
    const files = [
      __filename,
      path.join(workspaceRoot, 'tsconfig.base.json'),
      require.resolve('@swc/core/package.json', { paths: [workspaceRoot] }),
    ];
    const inputs = files.map((file) => {
      const stat = fs.statSync(file);
      return [path.relative(workspaceRoot, file), stat.size, stat.mtimeMs];
    });
    cachedKey = { key: textHash(files.map((file) => fs.readFileSync(file)).join('\0')), inputs };
  }
  return cachedKey;
}

const statsByPath = new Map();
/** A stat per path and process (every stamp of a closure names the same key inputs). */
function statOnce(rel) {
  if (!statsByPath.has(rel))
    statsByPath.set(rel, fs.statSync(`${workspaceRoot}/${rel}`, { throwIfNoEntry: false }));
  return statsByPath.get(rel);
}

/** Whether the stamp's record of compilerKey()'s inputs still matches them, stat for stat. */
function keyInputsUnchanged(stamp) {
  return (
    Array.isArray(stamp.keyInputs) &&
    stamp.keyInputs.length > 0 &&
    stamp.keyInputs.every(([rel, size, mtimeMs]) => {
      const stat = statOnce(rel);
      return stat !== undefined && stat.size === size && stat.mtimeMs === mtimeMs;
    })
  );
}

/**
 * A folder whose mtime is this recent may change again within the same timestamp tick (coarse
 * clocks, 2 s on some filesystems) without its mtime moving: its listing is not trusted.
 */
const RACY_FOLDER_MS = 3000;

/**
 * The project's compiled sources, workspace-relative, sorted, and the mtime of each folder listed
 * (taken before listing it; null when racy): a folder's mtime changes when an entry is added,
 * removed or renamed in it, so while they all match, the same listing would give the same sources.
 */
function listSources(projectRoot) {
  const files = [];
  const dirs = {};
  const walk = (dir) => {
    let entries;
    try {
      const { mtimeMs } = fs.statSync(`${workspaceRoot}/${dir}`);
      dirs[dir] = Date.now() - mtimeMs > RACY_FOLDER_MS ? mtimeMs : null;
      entries = fs.readdirSync(`${workspaceRoot}/${dir}`, { withFileTypes: true });
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== '__tests__' && entry.name !== 'testing' && entry.name !== 'node_modules')
          walk(rel);
      } else if (
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.d.ts') &&
        !/\.(spec|test)\.ts$/.test(entry.name)
      ) {
        files.push(rel);
      }
    }
  };
  walk(`${projectRoot}/src`);
  return { files: files.sort(), dirs };
}

/** Whether every folder the stamp's sources were listed from has its recorded mtime. */
function foldersUnchanged(stamp) {
  const dirs = Object.entries(stamp.dirs ?? {});
  return (
    dirs.length > 0 &&
    dirs.every(
      ([dir, mtimeMs]) =>
        fs.statSync(`${workspaceRoot}/${dir}`, { throwIfNoEntry: false })?.mtimeMs === mtimeMs,
    )
  );
}

const stampPath = (projectRoot) => path.join(distRoot, projectRoot, STAMP);
const outputOf = (sourceRel) => path.join(distRoot, sourceRel.replace(/\.ts$/, '.js'));

/** The project's stamp as on disk, undefined when it has none (not built). */
function readStamp(projectRoot) {
  try {
    return readJson(stampPath(projectRoot));
  } catch {
    return undefined;
  }
}

/**
 * Why the project's build is out of date, or null if it is not. Costs a stat per source and per
 * source folder when nothing changed: the folders' entries are listed again only when one of
 * their mtimes moved, and the compiler key is recomputed only when one of its inputs' did.
 */
function staleReason(projectRoot, stamp = readStamp(projectRoot)) {
  if (!stamp) return 'not built';
  let restamped = false;
  if (!keyInputsUnchanged(stamp)) {
    if (stamp.key !== compilerKey()) return 'build settings changed';
    stamp.keyInputs = keyAndInputs().inputs; // touched, same key
    restamped = true;
  }
  let sources = Object.keys(stamp.files);
  if (!foldersUnchanged(stamp)) {
    const listed = listSources(projectRoot);
    if (listed.files.length !== sources.length) return 'sources added or removed';
    sources = listed.files;
    stamp.dirs = listed.dirs; // an entry came and went, or a file outside the sources did
    restamped = true;
  }
  for (const rel of sources) {
    const recorded = stamp.files[rel];
    if (!recorded) return `${rel} is new`;
    // Concatenated, not path.join: these run for every source at every CLI start.
    const stat = fs.statSync(`${workspaceRoot}/${rel}`);
    if (stat.size === recorded[0] && stat.mtimeMs === recorded[1]) continue;
    if (sha1(fs.readFileSync(path.join(workspaceRoot, rel))) !== recorded[2]) return `${rel} changed`;
    stamp.files[rel] = [stat.size, stat.mtimeMs, recorded[2]]; // touched, same content
    restamped = true;
  }
  if (restamped) writeAtomic(stampPath(projectRoot), JSON.stringify(stamp), true);
  return null;
}

/** The projects `projectRoot` imports, directly or not (from the stamps), itself first. */
function closure(projectRoot, stampOf = readStamp) {
  const seen = new Set([projectRoot]);
  for (const root of seen) {
    // Not built yet: its dependencies are known once it is.
    const deps = stampOf(root)?.deps ?? [];
    // A project renamed or removed since the stamp was written is skipped: whatever imported it
    // has changed too, so it is rebuilt and stamped with its new imports.
    for (const dep of deps) if (fs.existsSync(path.join(workspaceRoot, dep))) seen.add(dep);
  }
  return [...seen];
}

/** `projectRoot` and what it imports, where stale: [{ projectRoot, reason }]. */
function staleProjects(projectRoot) {
  const stamps = new Map();
  const stampOf = (root) => {
    if (!stamps.has(root)) stamps.set(root, readStamp(root));
    return stamps.get(root);
  };
  return closure(projectRoot, stampOf)
    .map((root) => ({ projectRoot: root, reason: staleReason(root, stampOf(root)) }))
    .filter((p) => p.reason !== null);
}

/** Compiles one project into dist/, replacing its previous output file by file. */
async function buildProject(projectRoot) {
  const swc = require('@swc/core');
  const { files: sources, dirs } = listSources(projectRoot);
  if (sources.length === 0) throw new Error(`${projectRoot}/src has no TypeScript sources to build`);
  const files = {};
  const deps = new Set();
  await Promise.all(
    sources.map(async (rel) => {
      const file = path.join(workspaceRoot, rel);
      const stat = fs.statSync(file);
      const text = fs.readFileSync(file, 'utf8');
      files[rel] = [stat.size, stat.mtimeMs, sha1(text)];
      for (const [, alias] of text.matchAll(ALIAS_IMPORT)) {
        const dep = aliases().get(alias);
        if (dep && dep !== projectRoot) deps.add(dep);
      }
      const out = outputOf(rel);
      const options = swcOptions(file);
      options.sourceFileName = path.relative(path.dirname(out), file);
      const { code, map } = await swc.transform(text, options);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      writeAtomic(`${out}.map`, map);
      writeAtomic(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
    }),
  );
  removeOrphans(path.join(distRoot, projectRoot, 'src'), new Set(sources.map(outputOf)));
  const stamp = {
    key: compilerKey(),
    keyInputs: keyAndInputs().inputs,
    deps: [...deps].sort(),
    dirs,
    files: sortedObject(files),
  };
  writeAtomic(stampPath(projectRoot), JSON.stringify(stamp));
}

/** Deletes compiled files whose source is gone (a renamed module must not linger in dist/). */
function removeOrphans(dir, keep) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) removeOrphans(file, keep);
    else if (!keep.has(file.replace(/\.map$/, '')) && !file.endsWith('.tmp'))
      fs.rmSync(file, { force: true });
  }
}

/**
 * Rebuilds `projectRoot` and what it imports where stale; a no-op costing a stat per source when
 * everything is fresh. Returns the projects it compiled.
 */
async function ensureBuilt(projectRoot, { onBuild } = {}) {
  if (staleProjects(projectRoot).length === 0) return [];
  return withLock(async () => {
    const built = [];
    for (let stale = staleProjects(projectRoot); stale.length > 0; stale = staleProjects(projectRoot)) {
      onBuild?.(stale);
      for (const { projectRoot: root } of stale) {
        await buildProject(root);
        built.push(root);
      }
    }
    return built;
  });
}

/** Compiles these projects whether stale or not (the Nx `build` targets). */
function buildProjects(projectRoots) {
  return withLock(async () => {
    for (const root of projectRoots) await buildProject(root);
  });
}

/**
 * Builds run one at a time per workspace (processes that start together, like parallel test
 * workers or Nx tasks, wait for each other), so no build sees another's half-written output. A
 * lock whose process is gone (Ctrl-C mid-build) is taken over.
 */
async function withLock(body) {
  const dir = path.join(distRoot, '.build.lock');
  fs.mkdirSync(distRoot, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(dir);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (lockAbandoned(dir)) fs.rmSync(dir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
    return await body();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function lockAbandoned(dir) {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return false;
  } catch (error) {
    if (error.code === 'ESRCH') return true;
    // No pid yet (just taken) or not ours to signal: abandoned only if old.
    try {
      return Date.now() - fs.statSync(dir).mtimeMs > 60_000;
    } catch {
      return false; // released meanwhile
    }
  }
}

function writeAtomic(file, text, bestEffort = false) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    if (!bestEffort) throw error;
  }
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The SHA-1 of a source file (node:crypto loaded only when a file is hashed). */
function sha1(data) {
  return require('node:crypto').createHash('sha1').update(data).digest('hex');
}

/** Two 32-bit FNV-1a lanes over the UTF-16 code units, as 16 hex digits: tells texts apart. */
function textHash(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

function sortedObject(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1)));
}

module.exports = {
  buildProjects,
  listSources,
  swcOptions,
  ensureBuilt,
  staleProjects,
  lazyProjectRoots,
  textHash,
  writeAtomic,
  workspaceRoot,
  distRoot,
};

if (require.main === module) {
  const args = process.argv.slice(2);
  const started = Date.now();
  const onBuild = (stale) =>
    console.log(`building ${stale.map((p) => `${p.projectRoot} (${p.reason})`).join(', ')}`);
  const roots = args.filter((arg) => arg !== '--stale');
  const run =
    args[0] === '--stale'
      ? roots.reduce(
          (previous, root) => previous.then(() => ensureBuilt(root, { onBuild })),
          Promise.resolve(),
        )
      : buildProjects(roots);
  run.then(
    () => console.log(`built ${roots.join(', ')} in ${Date.now() - started} ms`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
