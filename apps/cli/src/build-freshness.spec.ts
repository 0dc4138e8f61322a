import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The freshness check the `schedlab` bin runs at every start (scripts/build.cjs ensureBuilt), on a
 * one-library workspace of its own: whatever changed in the sources, the next start rebuilds, and
 * nothing else does.
 */
describe('scripts/build.cjs freshness check', () => {
  const repo = path.join(__dirname, '../../..');
  let root: string;
  const src = (rel = '') => path.join(root, 'libs/tiny/src', rel);
  const anHourAgo = () => new Date(Date.now() - 3_600_000);
  /** Older than the racy window, as a workspace's folders are between two edits. */
  const age = (...files: string[]) => files.forEach((file) => utimesSync(file, anHourAgo(), anHourAgo()));

  /** Builds libs/tiny where stale: the reason it was stale, or null when it was fresh. */
  const ensureBuilt = (): string | null => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/build.cjs'), '--stale', 'libs/tiny'], {
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(run.stderr);
    return /^building libs\/tiny \((.*)\)$/m.exec(run.stdout)?.[1] ?? null;
  };

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'schedlab-build-')));
    mkdirSync(path.join(root, 'scripts'));
    copyFileSync(path.join(repo, 'scripts/build.cjs'), path.join(root, 'scripts/build.cjs'));
    symlinkSync(realpathSync(path.join(repo, 'node_modules')), path.join(root, 'node_modules'));
    writeFileSync(
      path.join(root, 'tsconfig.base.json'),
      JSON.stringify({ compilerOptions: { paths: { '@tiny/lib': ['libs/tiny/src/index.ts'] } } }),
    );
    mkdirSync(src('sub'), { recursive: true });
    writeFileSync(src('index.ts'), "export * from './sub/a';\n");
    writeFileSync(src('sub/a.ts'), 'export const a = 1;\n');
    age(src('index.ts'), src('sub/a.ts'), src('sub'), src());
    expect(ensureBuilt()).toBe('not built');
    expect(ensureBuilt()).toBeNull();
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('records the folders it listed, and trusts none changed within the last seconds', () => {
    const stamp = () =>
      JSON.parse(readFileSync(path.join(root, 'dist/libs/tiny/build-stamp.json'), 'utf8')) as {
        dirs: Record<string, number | null>;
      };
    expect(Object.keys(stamp().dirs).sort()).toEqual(['libs/tiny/src', 'libs/tiny/src/sub']);
    expect(Object.values(stamp().dirs).every((mtime) => typeof mtime === 'number')).toBe(true);
    writeFileSync(src('sub/a.spec.ts'), 'test.todo("a");\n');
    expect(ensureBuilt()).toBeNull(); // a spec is not compiled
    expect(stamp().dirs['libs/tiny/src/sub']).toBeNull(); // just changed: listed again next time
  });

  it('rebuilds after an edit in place, the folder untouched', () => {
    writeFileSync(src('sub/a.ts'), 'export const a = 2;\n');
    age(src('sub'));
    expect(ensureBuilt()).toBe('libs/tiny/src/sub/a.ts changed');
    expect(readFileSync(path.join(root, 'dist/libs/tiny/src/sub/a.js'), 'utf8')).toMatch(/\ba\s*=\s*2\b/);
    expect(ensureBuilt()).toBeNull();
  });

  it('does not rebuild a source touched with the same content', () => {
    utimesSync(src('sub/a.ts'), new Date(), new Date());
    expect(ensureBuilt()).toBeNull();
  });

  it('rebuilds when a source is added, removed or renamed, in a folder or a new one', () => {
    writeFileSync(src('sub/b.ts'), 'export const b = 1;\n');
    expect(ensureBuilt()).toBe('sources added or removed');
    renameSync(src('sub/b.ts'), src('sub/c.ts'));
    expect(ensureBuilt()).toBe('libs/tiny/src/sub/c.ts is new');
    rmSync(src('sub/c.ts'));
    expect(ensureBuilt()).toBe('sources added or removed');
    mkdirSync(src('deeper/still'), { recursive: true });
    writeFileSync(src('deeper/still/d.ts'), 'export const d = 1;\n');
    expect(ensureBuilt()).toBe('sources added or removed');
    expect(ensureBuilt()).toBeNull();
  });

  it('rebuilds when the build settings change, not when they are only touched', () => {
    utimesSync(path.join(root, 'scripts/build.cjs'), new Date(), new Date());
    expect(ensureBuilt()).toBeNull();
    const tsconfig = path.join(root, 'tsconfig.base.json');
    writeFileSync(tsconfig, readFileSync(tsconfig, 'utf8').replace('@tiny/lib', '@tiny/library'));
    expect(ensureBuilt()).toBe('build settings changed');
    expect(ensureBuilt()).toBeNull();
  });
});
