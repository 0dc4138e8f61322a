import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from '@swc/core';

const repo = path.join(__dirname, '../../..');
const build = require(path.join(repo, 'scripts/build.cjs')) as {
  listSources: (projectRoot: string) => { files: string[] };
  swcOptions: (file: string) => Record<string, unknown>;
};

/** Any UTF-16 unit past ASCII (a surrogate too). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * What scripts/build.cjs makes of the sources: one non-ASCII character in a compiled module makes
 * V8 hold a whole CLI pack holding it as a two-byte string (twice the memory, a slower read at
 * every start). SWC writes them as escapes, except in a String.raw template, which it cannot.
 */
describe('compiled modules (scripts/build.cjs)', () => {
  it('are ASCII for every source of the CLI and the libraries', () => {
    const projects = ['apps/cli', ...readdirSync(path.join(repo, 'libs')).map((name) => `libs/${name}`)];
    const offending: string[] = [];
    for (const project of projects) {
      for (const rel of build.listSources(project).files) {
        const file = path.join(repo, rel);
        const { code } = transformSync(readFileSync(file, 'utf8'), build.swcOptions(file));
        if (NON_ASCII.test(code)) offending.push(rel);
      }
    }
    expect(offending).toEqual([]);
  });

  it('keep what a non-ASCII character means', () => {
    const file = path.join(repo, 'libs/k8s/src/example.ts');
    const source = "export const units = { µs: 1, 'a → b': `… ${'—'}` };";
    const { code } = transformSync(source, build.swcOptions(file));
    expect(code).not.toMatch(NON_ASCII);
    const exports: Record<string, unknown> = {};
    new Function('exports', code)(exports);
    expect(exports.units).toEqual({ µs: 1, 'a → b': '… —' });
  });
});
