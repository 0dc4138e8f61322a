import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repo = path.join(__dirname, '../../..');
const cliPack = path.join(repo, 'scripts/cli-pack.cjs');
const { packedFiles, codeCachePath } = require(cliPack) as {
  packedFiles: (distRoot: string, command: string, leftOut: string[]) => string[] | undefined;
  codeCachePath: (distRoot: string, command: string) => string;
};

/**
 * scripts/cli-pack.cjs on a small dist/ of its own: what a command's pack holds, that its modules
 * run as they would from their files, and that a pack older than a project's build never runs.
 */
describe('CLI packs (scripts/cli-pack.cjs)', () => {
  let dist: string;
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dist, rel)), { recursive: true });
    writeFileSync(path.join(dist, rel), text);
  };
  /** As build.cjs does after compiling a project: a new stamp (its size or mtime differs). */
  const stamp = (project: string, build: number) =>
    write(`${project}/build-stamp.json`, `{"build":${build}}`);
  /** Runs `command` through packFor + runPack in a fresh node; its stdout lines. */
  const run = (command: string) => {
    const script = `
      const packs = require(${JSON.stringify(cliPack)});
      const pack = packs.packFor(${JSON.stringify(dist)}, ${JSON.stringify(command)}, ['libs/lazy']);
      console.log(pack ? 'packed' : 'no pack');
      if (pack) packs.runPack(${JSON.stringify(dist)}, pack);`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(result.stderr);
    return result.stdout.trim().split('\n');
  };

  beforeEach(() => {
    dist = path.join(realpathSync(mkdtempSync(path.join(os.tmpdir(), 'schedlab-pack-'))), 'dist');
    write('apps/cli/src/main.js', 'require("./commands/index.js").commands.hello();\n');
    write(
      'apps/cli/src/commands/index.js',
      'exports.commands = { hello: () => require("./hello"), other: () => require("./other") };\n',
    );
    write(
      'apps/cli/src/commands/hello.js',
      [
        'const a = require("../../../../libs/a/src/index.js");',
        'const lazy = () => require("../../../../libs/lazy/src/index.js");',
        'console.log("hello", a.value, require("node:path").basename(__filename), this === module.exports);',
        'console.log("same instance from disk", lazy().a === a, "count", a.count());',
        'console.log("cached", Object.keys(require.cache).filter((f) => f.includes("/libs/")).map((f) => require("node:path").basename(f)).join(","));',
      ].join('\n'),
    );
    write('apps/cli/src/commands/other.js', 'console.log("other");\n');
    write(
      'libs/a/src/index.js',
      'let loads = (globalThis.loads ?? 0) + 1; globalThis.loads = loads; exports.value = 1; exports.count = () => loads; exports.b = require("./b");\n',
    );
    write('libs/a/src/b.js', 'exports.fromA = require("./index.js").value;\n');
    write('libs/lazy/src/index.js', 'exports.a = require("../../a/src/index.js");\n');
    for (const project of ['apps/cli', 'libs/a', 'libs/lazy']) stamp(project, 1);
  });

  afterEach(() => {
    rmSync(path.dirname(dist), { recursive: true, force: true });
    // Runs of the pack leave its code cache in the folder of temporary files.
    rmSync(codeCachePath(dist, 'hello'), { force: true });
  });

  it("holds the entry, the command's module and what they require, but not other commands or lazy libraries", () => {
    expect(packedFiles(dist, 'hello', ['libs/lazy'])).toEqual([
      'apps/cli/src/commands/hello.js',
      'apps/cli/src/commands/index.js',
      'apps/cli/src/main.js',
      'libs/a/src/b.js',
      'libs/a/src/index.js',
    ]);
    expect(packedFiles(dist, 'missing', [])).toBeUndefined();
  });

  it('runs the modules as from their files: names, this, one instance shared with modules loaded from disk', () => {
    expect(run('hello')).toEqual([
      'packed',
      'hello 1 hello.js true',
      'same instance from disk true count 1',
      'cached index.js,b.js,index.js',
    ]);
    expect(statSync(path.join(dist, 'apps/cli/packs/hello.js')).isFile()).toBe(true);
    expect(readFileSync(path.join(dist, 'apps/cli/packs/hello.js'), 'utf8')).not.toContain('"other"');
  });

  it('writes the pack again once a project it took modules from is compiled again', () => {
    expect(run('hello')[1]).toBe('hello 1 hello.js true');
    write('libs/a/src/index.js', 'exports.value = 2; exports.count = () => 1;\n');
    stamp('libs/a', 22);
    expect(run('hello')[1]).toBe('hello 2 hello.js true');
    // Same size, later mtime: a restamp counts too.
    write('libs/a/src/index.js', 'exports.value = 3; exports.count = () => 1;\n');
    const stampFile = path.join(dist, 'libs/a/build-stamp.json');
    const later = new Date(statSync(stampFile).mtimeMs + 5000);
    utimesSync(stampFile, later, later);
    expect(run('hello')[1]).toBe('hello 3 hello.js true');
  });

  it('runs the pack while the stamps match, and writes it again once another packer wrote it', () => {
    expect(run('hello')[1]).toBe('hello 1 hello.js true');
    // dist/ changed behind build.cjs's back (no new stamp): the pack still runs, as written.
    write('libs/a/src/index.js', 'exports.value = 5; exports.count = () => 1;\n');
    expect(run('hello')[1]).toBe('hello 1 hello.js true');
    const packFile = path.join(dist, 'apps/cli/packs/hello.js');
    writeFileSync(
      packFile,
      readFileSync(packFile, 'utf8').replace('exports.packer = [', 'exports.packer = [1 + '),
    );
    expect(run('hello')[1]).toBe('hello 5 hello.js true');
  });

  describe('code cache', () => {
    const cacheFile = () => codeCachePath(dist, 'hello');
    /** Runs `hello` as `run` does; whether its pack was compiled from a code cache, then its lines. */
    const runCached = () => {
      const script = `
        const packs = require(${JSON.stringify(cliPack)});
        const pack = packs.packFor(${JSON.stringify(dist)}, 'hello', ['libs/lazy']);
        console.log('code cache', packs.usedCodeCache(pack));
        packs.runPack(${JSON.stringify(dist)}, pack);`;
      const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(result.stderr);
      return result.stdout.trim().split('\n').slice(0, 2);
    };

    it('is kept outside dist/, one per checkout', () => {
      expect(cacheFile().startsWith(os.tmpdir())).toBe(true);
      expect(codeCachePath('/a/dist', 'hello')).not.toBe(codeCachePath('/b/dist', 'hello'));
    });

    it('is taken when a run that had none ends, and compiles the runs after it', () => {
      expect(runCached()).toEqual(['code cache false', 'hello 1 hello.js true']);
      const packStat = statSync(path.join(dist, 'apps/cli/packs/hello.js'));
      const header = readFileSync(cacheFile()).toString('latin1').split('\n')[0];
      expect(JSON.parse(header)).toEqual({ pack: [packStat.size, packStat.mtimeMs, packStat.ino] });
      expect(runCached()).toEqual(['code cache true', 'hello 1 hello.js true']);
      expect(runCached()).toEqual(['code cache true', 'hello 1 hello.js true']);
    });

    it('is not used when it was taken from another pack, or when it names another pack file', () => {
      runCached();
      // A rewritten pack (a project compiled again): the old cache is left alone, then replaced.
      write('libs/a/src/index.js', 'exports.value = 7; exports.count = () => 1;\n');
      stamp('libs/a', 2);
      expect(runCached()).toEqual(['code cache false', 'hello 7 hello.js true']);
      expect(runCached()).toEqual(['code cache true', 'hello 7 hello.js true']);
      // A cache whose record names another file, with V8's data intact.
      const data = readFileSync(cacheFile());
      const rest = data.subarray(data.indexOf(10));
      writeFileSync(cacheFile(), Buffer.concat([Buffer.from('{"pack":[1,2,3]}'), rest]));
      expect(runCached()).toEqual(['code cache false', 'hello 7 hello.js true']);
      // Torn or foreign files are ignored too.
      writeFileSync(cacheFile(), 'not a cache');
      expect(runCached()).toEqual(['code cache false', 'hello 7 hello.js true']);
      expect(runCached()).toEqual(['code cache true', 'hello 7 hello.js true']);
    });
  });

  it('has no pack for an option, an unknown command or a name that is not one', () => {
    expect(run('--version')).toEqual(['no pack']);
    expect(run('nope')).toEqual(['no pack']);
    expect(run('../../etc')).toEqual(['no pack']);
  });

  it('leaves a module that throws out of require.cache, as Node does', () => {
    write('apps/cli/src/commands/hello.js', 'require("./broken.js");\n');
    write('apps/cli/src/commands/broken.js', 'throw new Error("broken at load");\n');
    const script = `
      const packs = require(${JSON.stringify(cliPack)});
      const pack = packs.packFor(${JSON.stringify(dist)}, 'hello', []);
      try { packs.runPack(${JSON.stringify(dist)}, pack); } catch (e) { console.log(e.message); }
      console.log(Object.keys(require.cache).some((f) => f.endsWith('broken.js')));`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.stdout.trim().split('\n')).toEqual(['broken at load', 'false']);
  });
});
