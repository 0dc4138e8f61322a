/**
 * CLI packs: one file per `schedlab` command holding the compiled modules that command loads
 * from dist/ (dist/apps/cli/packs/<command>.js). A start from dist/ resolves, stats, reads and
 * looks up in the compile cache some 250 files, one by one; from a pack it reads one. Each module
 * is a parenthesised function, which V8 compiles with the file, so the compile cache keeps every
 * module's top level as it does for separate files.
 *
 * A pack holds the CLI's entry, the command's module, and every dist/ module they reach through a
 * relative require, except the other commands' modules (the command list requires them all) and
 * the libraries build.cjs loads on first use (lazyProjectRoots): those, and every package under
 * node_modules, load from disk as before.
 * Packed modules go into require.cache under their dist/ file names, so a module loaded from disk
 * later shares their instances.
 *
 * A pack records the size and mtime of the build stamp of every project it took modules from, and
 * of this script. build.cjs rewrites a project's stamp whenever it compiles or restamps it, so a
 * pack whose record differs from the stamps on disk (or that another version of this script
 * wrote) is never run: it is written again from dist/ first.
 *
 * Each pack also has a code cache (see readPack): V8's code for every function the command's first
 * run compiled, so later starts compile nothing they ran before.
 */
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const os = require('node:os');
const vm = require('node:vm');
const { textHash, writeAtomic } = require('./build.cjs');

const ENTRY = 'apps/cli/src/main.js';
const COMMANDS_DIR = 'apps/cli/src/commands/';
const COMMAND_LIST = `${COMMANDS_DIR}index.js`;
const PACKS_DIR = 'apps/cli/packs';
/** The folder, under the one of temporary files, that holds the packs' code caches. */
const CODE_CACHE_DIR = 'schedlab-pack-cache';
/** Node's resolution of a relative request for the files dist/ has: the file, .js, a folder's index. */
const CANDIDATE_SUFFIXES = ['', '.js', '/index.js'];
const RELATIVE_REQUIRE = /\brequire\("(\.\.?\/[^"]+)"\)/g;
const COMMAND_NAME = /^[a-z][a-z-]*$/;

/** 'libs/k8s/src/parse.js' → 'libs/k8s'. */
const projectOf = (rel) => rel.slice(0, rel.indexOf('/src/'));

/**
 * The dist/-relative files `command`'s pack holds, sorted; undefined when the CLI has no such
 * command module.
 */
function packedFiles(distRoot, command, leftOutProjects) {
  const commandFile = `${COMMANDS_DIR}${command}.js`;
  if (!fs.existsSync(path.join(distRoot, commandFile))) return undefined;
  const packed = new Set([ENTRY, commandFile]);
  for (const rel of packed) {
    const code = fs.readFileSync(path.join(distRoot, rel), 'utf8');
    for (const [, request] of code.matchAll(RELATIVE_REQUIRE)) {
      const target = existingTarget(distRoot, path.posix.join(path.posix.dirname(rel), request));
      if (!target || target.startsWith('..') || !target.includes('/src/')) continue;
      // The command list requires every command's module; only this command's is packed.
      if (rel === COMMAND_LIST && target !== commandFile) continue;
      if (!leftOutProjects.includes(projectOf(target))) packed.add(target);
    }
  }
  return [...packed].sort();
}

function existingTarget(distRoot, rel) {
  for (const suffix of CANDIDATE_SUFFIXES) {
    const stat = fs.statSync(path.join(distRoot, rel + suffix), { throwIfNoEntry: false });
    if (stat?.isFile()) return rel + suffix;
  }
  return undefined;
}

/** [size, mtimeMs] of each project's build stamp, as a pack records them; null for a missing one. */
function stampRecord(distRoot, projects) {
  const record = {};
  for (const project of projects) {
    const stat = fs.statSync(path.join(distRoot, project, 'build-stamp.json'), { throwIfNoEntry: false });
    record[project] = stat ? [stat.size, stat.mtimeMs] : null;
  }
  return record;
}

/** [size, mtimeMs] of this script: a pack written by another version of it is written again. */
function packerRecord() {
  const { size, mtimeMs } = fs.statSync(__filename);
  return [size, mtimeMs];
}

/** Whether `pack` was written by this script from dist/ as it is: every stamp it recorded unchanged. */
function packIsCurrent(distRoot, pack) {
  const { stamps, packer } = pack;
  if (!stamps || typeof stamps !== 'object' || !Array.isArray(packer)) return false;
  const [size, mtimeMs] = packerRecord();
  if (packer[0] !== size || packer[1] !== mtimeMs) return false;
  const projects = Object.keys(stamps);
  const now = stampRecord(distRoot, projects);
  return projects.every(
    (p) => stamps[p] !== null && now[p]?.[0] === stamps[p][0] && now[p][1] === stamps[p][1],
  );
}

/** Writes `command`'s pack from dist/ (atomically): false when there is no such command. */
function writePack(distRoot, command, leftOutProjects) {
  const files = packedFiles(distRoot, command, leftOutProjects);
  if (!files) return false;
  // Stamps first: a project compiled while the modules are read leaves a record that no longer
  // matches, so the next start writes the pack again.
  const stamps = stampRecord(distRoot, [...new Set(files.map(projectOf))].sort());
  if (Object.values(stamps).includes(null)) return false; // not compiled by build.cjs
  const parts = [
    `"use strict";\nexports.packer = ${JSON.stringify(packerRecord())};\n`,
    `exports.stamps = ${JSON.stringify(stamps)};\nexports.modules = {\n`,
  ];
  for (const rel of files) {
    // Each module's compiled text, unchanged, as the body of the function Node would wrap it in;
    // its source map comment is dropped (it would name the pack).
    const code = fs
      .readFileSync(path.join(distRoot, rel), 'utf8')
      .replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
    parts.push(
      `${JSON.stringify(rel)}: (function (exports, require, module, __filename, __dirname) {\n${code}\n}),\n`,
    );
  }
  parts.push('};\n');
  const file = packPath(distRoot, command);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeAtomic(file, parts.join(''));
  return true;
}

const packPath = (distRoot, command) => path.join(distRoot, PACKS_DIR, `${command}.js`);

/**
 * A pack's code cache: V8's compiled code for the pack, taken when a run that found none ends, so
 * it holds every function that run compiled. Node's compile cache holds only what V8 compiles with
 * the file (the modules' top levels); the functions a command calls were compiled again on every
 * start.
 *
 * It is kept in the folder of temporary files, as Node's compile cache is, not beside the pack: a
 * dist/ may be read-only. Its name carries the command and a hash of the pack's path, so each
 * checkout has its own.
 *
 * V8 checks a cache against the source's length, not its text, so the file also records which pack
 * it was taken from: the [size, mtimeMs, ino] of the file the pack was read from (a pack is only
 * ever replaced by a rename). A cache of another pack is not used; the run then takes a new one.
 */
function codeCachePath(distRoot, command) {
  const name = `${command}-${textHash(packPath(distRoot, command))}.cache`;
  return path.join(os.tmpdir(), CODE_CACHE_DIR, name);
}

/** The pack's source and the identity of the file it was read from (one open file: no race). */
function readPackSource(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const { size, mtimeMs, ino } = fs.fstatSync(fd);
    return { source: fs.readFileSync(fd, 'utf8'), identity: [size, mtimeMs, ino] };
  } finally {
    fs.closeSync(fd);
  }
}

/** The code cache recorded for the pack of `identity`, or undefined. */
function readCodeCache(file, identity) {
  let data;
  try {
    data = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const newline = data.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const header = JSON.parse(data.subarray(0, newline).toString('utf8'));
    if (JSON.stringify(header.pack) !== JSON.stringify(identity)) return undefined;
  } catch {
    return undefined;
  }
  return data.subarray(newline + 1);
}

/** Per pack readPack loaded: its script, where its code cache goes and which pack file it was. */
const loadedPacks = new WeakMap();

/** A dynamic import() in a packed module loads as it would from its file (Node 21.7+). */
const scriptOptions = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER
  ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }
  : {};

function readPack(distRoot, command) {
  const file = packPath(distRoot, command);
  try {
    const { source, identity } = readPackSource(file);
    const cacheFile = codeCachePath(distRoot, command);
    const cachedData = readCodeCache(cacheFile, identity);
    const script = new vm.Script(Module.wrap(source), { filename: file, cachedData, ...scriptOptions });
    const mod = new Module(file, module);
    mod.filename = file;
    script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, path.dirname(file));
    const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
    loadedPacks.set(mod.exports, { script, cacheFile, identity, cacheUsed });
    return mod.exports;
  } catch {
    return undefined; // missing, or torn by a crash before the rename: written again
  }
}

/** Whether `pack` was compiled from its code cache (for tests and diagnostics). */
function usedCodeCache(pack) {
  return loadedPacks.get(pack)?.cacheUsed === true;
}

/** At exit, records the code cache of a pack that ran without one (best effort). */
function recordCodeCacheAtExit(pack) {
  const loaded = loadedPacks.get(pack);
  if (!loaded || loaded.cacheUsed) return;
  process.once('exit', () => {
    try {
      // A plain mkdir, as the bin's for Node's compile cache: a recursive one can hang on odd places.
      fs.mkdirSync(path.dirname(loaded.cacheFile));
    } catch (error) {
      if (error?.code !== 'EEXIST') return; // nowhere to keep it: not worth serializing
    }
    try {
      const header = Buffer.from(`${JSON.stringify({ pack: loaded.identity })}\n`);
      writeAtomic(loaded.cacheFile, Buffer.concat([header, loaded.script.createCachedData()]));
    } catch {
      // an optimisation only (a full disk)
    }
  });
}

/**
 * A pack of `command` that matches dist/, written first where missing or out of date; undefined
 * when there is none to be had (no such command, dist/ not writable): the caller runs dist/.
 */
function packFor(distRoot, command, leftOutProjects) {
  if (!COMMAND_NAME.test(command ?? '')) return undefined;
  try {
    let pack = readPack(distRoot, command);
    if (!pack || !packIsCurrent(distRoot, pack)) {
      if (!writePack(distRoot, command, leftOutProjects)) return undefined;
      pack = readPack(distRoot, command);
      if (!pack || !packIsCurrent(distRoot, pack)) return undefined; // compiled meanwhile
    }
    return pack;
  } catch {
    return undefined; // an optimisation only
  }
}

/**
 * Loads `rel` from the pack as Node would load its file: a Module under the dist/ file name in
 * require.cache, evaluated once, its relative requires served by the pack where it holds them.
 */
function loadPacked(distRoot, modules, rel, parent) {
  const filename = path.join(distRoot, rel);
  const cached = require.cache[filename];
  if (cached) return cached.exports;
  const mod = new Module(filename, parent);
  mod.filename = filename;
  const dir = path.posix.dirname(rel);
  let fromDisk;
  const requireFromPack = (request) => {
    if (request.startsWith('./') || request.startsWith('../')) {
      const target = path.posix.join(dir, request);
      for (const suffix of CANDIDATE_SUFFIXES) {
        if (Object.hasOwn(modules, target + suffix))
          return loadPacked(distRoot, modules, target + suffix, mod);
      }
    }
    fromDisk ??= Module.createRequire(filename);
    return fromDisk(request);
  };
  requireFromPack.resolve = (request, options) =>
    (fromDisk ??= Module.createRequire(filename)).resolve(request, options);
  requireFromPack.cache = require.cache;
  requireFromPack.main = require.main;
  require.cache[filename] = mod;
  try {
    modules[rel].call(mod.exports, mod.exports, requireFromPack, mod, filename, path.dirname(filename));
  } catch (error) {
    delete require.cache[filename];
    throw error;
  }
  mod.loaded = true;
  return mod.exports;
}

/** Runs the CLI's entry from `pack` (it reads the command from process.argv itself). */
function runPack(distRoot, pack) {
  recordCodeCacheAtExit(pack);
  loadPacked(distRoot, pack.modules, ENTRY, module);
}

module.exports = { packFor, runPack, packedFiles, usedCodeCache, codeCachePath };
