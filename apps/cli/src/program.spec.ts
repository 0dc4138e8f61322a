import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { example } from './testing/cli';
import { Help } from 'commander';
import { commandEntries } from './commands';
import { commandNamed, createProgram } from './program';
import { reportStatus } from './commands/status';

const bin = path.join(__dirname, '..', 'bin', 'schedlab.js');
const rootVersion = (
  JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string }
).version;

describe('schedlab program', () => {
  it('lists registered subcommands in --help', async () => {
    let help = '';
    const program = createProgram({ version: '1.2.3', out: (t) => (help += t) }).exitOverride();
    await expect(program.parseAsync(['node', 'schedlab', '--help'])).rejects.toThrow();
    expect(help).toContain('Usage: schedlab');
    expect(help).toMatch(/status \[options\]\s+check that a running Schedlab api/);
  });

  it('lists every command from commandEntries exactly as the loaded modules would', async () => {
    const helpOf = async (argv?: string[]) => {
      let help = '';
      const program = createProgram({ version: '1.2.3', argv, out: (t) => (help += t) }).exitOverride();
      await expect(program.parseAsync(['node', 'schedlab', '--help'])).rejects.toThrow();
      return help;
    };
    expect(await helpOf(['node', 'schedlab', '--help'])).toBe(await helpOf());

    const loaded = createProgram({ version: '1.2.3' });
    const help = new Help();
    const registered = loaded.commands.map((c) => ({
      name: c.name(),
      term: help.subcommandTerm(c),
      description: c.description(),
    }));
    // When this fails, a command's name, arguments or description changed: update commands/index.ts.
    expect(commandEntries.map(({ name, term, description }) => ({ name, term, description }))).toEqual(
      registered,
    );
  });

  it('finds the command a command line runs or asks help for', () => {
    expect(commandNamed(['node', 'schedlab', 'simulate', '--cluster', 'x.yaml'])).toBe('simulate');
    expect(commandNamed(['node', 'schedlab', 'help', 'tenant'])).toBe('tenant');
    expect(commandNamed(['node', 'schedlab', '--help'])).toBeUndefined();
    expect(commandNamed(['node', 'schedlab', 'no-such-command'])).toBeUndefined();
  });

  it('prints the version it was given', async () => {
    let out = '';
    const program = createProgram({ version: '1.2.3', out: (t) => (out += t) }).exitOverride();
    await expect(program.parseAsync(['node', 'schedlab', '--version'])).rejects.toThrow('1.2.3');
    expect(out.trim()).toBe('1.2.3');
  });
});

describe('the schedlab bin', () => {
  it('runs the compiled CLI and reports the workspace version', () => {
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).trim()).toBe(rootVersion);
  });

  it('executed, starts Node with its young generation held to 4 MiB and passes every argument on as given', () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'schedlab-bin-'));
    try {
      const probe = path.join(tmp, 'probe.js');
      writeFileSync(
        probe,
        `process.on('exit', () => process.stderr.write('\\nexecArgv: ' + JSON.stringify(process.execArgv) + '\\n'));`,
      );
      // As npm runs a bin: the file itself, the `node` on PATH (here, this test's).
      const run = (...args: string[]) =>
        spawnSync(bin, args, {
          encoding: 'utf8',
          env: {
            ...process.env,
            PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
            NODE_OPTIONS: `--require ${probe}`,
          },
          timeout: 60_000,
        });
      const version = run('--version');
      expect(version.stdout.trim()).toBe(rootVersion);
      expect(JSON.parse(/^execArgv: (.*)$/m.exec(version.stderr)![1])).toEqual(['--max-semi-space-size=4']);
      const odd = path.join(tmp, `a dir $HOME "it's"`, 'cluster.yaml');
      const missing = run('simulate', '--cluster', odd);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain(`schedlab: ${odd}: cannot read: no such file`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("keeps Node's compile cache in the OS temp directory, and runs without it where that cannot be written", () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'schedlab-cache-'));
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^NODE_(DISABLE_)?COMPILE_CACHE$/.test(name)),
    );
    try {
      const run = (tmpdir: string) =>
        spawnSync(process.execPath, [bin, '--version'], {
          encoding: 'utf8',
          env: { ...env, TMPDIR: tmpdir },
          timeout: 60_000,
        });
      const cached = run(tmp);
      expect([cached.stdout.trim(), cached.stderr]).toEqual([rootVersion, '']);
      const supported = 'enableCompileCache' in require('node:module');
      expect(existsSync(path.join(tmp, 'node-compile-cache'))).toBe(supported);
      // Not a directory, and procfs (where Node's own recursive mkdir never returns).
      for (const unwritable of [path.join(tmp, 'file'), '/proc/self']) {
        writeFileSync(path.join(tmp, 'file'), '');
        const plain = run(unwritable);
        expect([unwritable, plain.status, plain.stdout.trim(), plain.stderr]).toEqual([
          unwritable,
          0,
          rootVersion,
          '',
        ]);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("loads zod's message locales only when one is asked for, and then all of them", () => {
    const script = [
      `process.argv.splice(1, 0, ${JSON.stringify(bin)}, '--version');`,
      `process.exit = () => undefined;`,
      `require(${JSON.stringify(bin)});`,
      `const localeFiles = () => Object.keys(require.cache).filter((f) => /[/\\\\]locales[/\\\\]/.test(f)).length;`,
      `const z = require('zod');`,
      `const before = localeFiles();`,
      `const english = z.string().safeParse(1).error.issues[0].message;`,
      `z.config(z.locales.fr());`,
      `const french = z.string().safeParse(1).error.issues[0].message;`,
      `z.config(z.locales.en());`,
      `process.stderr.write('\\nlocales: ' + JSON.stringify([before, english, french, Object.keys(z.locales).length > 40, localeFiles() > 40]) + '\\n');`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const [before, english, french, allKeys, allLoaded] = JSON.parse(
      /^locales: (.*)$/m.exec(run.stderr)![1],
    ) as [number, string, string, boolean, boolean];
    // The stand-in and English, which zod loads apart from the locales module (its default).
    expect(before).toBeLessThanOrEqual(2);
    expect(english).toBe('Invalid input: expected string, received number');
    expect(french).not.toBe(english);
    expect([allKeys, allLoaded]).toEqual([true, true]);
  });

  /** The workspace modules a bin run loads, by project (e.g. apps/cli, libs/scheduler). */
  const projectsLoadedBy = (...args: string[]): string[] => {
    const script = [
      `process.argv.splice(1, 0, ${JSON.stringify(bin)});`,
      `process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));`,
      `require(${JSON.stringify(bin)});`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', script, '--', ...args], { encoding: 'utf8' });
    const projects = (JSON.parse(run.stderr) as string[])
      .map((file) => /[/\\]dist[/\\]((?:apps|libs)[/\\][\w-]+)[/\\]/.exec(file)?.[1])
      .filter((p): p is string => p !== undefined);
    return [...new Set(projects)].sort();
  };

  it('loads only the libraries a command uses', () => {
    expect(projectsLoadedBy('--version')).toEqual(['apps/cli']);
    expect(projectsLoadedBy('--help')).toEqual(['apps/cli']);
    expect(projectsLoadedBy('status', '--help')).toEqual(['apps/cli']);
    const simulate = projectsLoadedBy('simulate', '--cluster', example('cluster-small.yaml'), '-o', 'json');
    expect(simulate).toContain('libs/scheduler');
    expect(simulate).not.toContain('libs/report'); // only with --report
    expect(simulate).not.toContain('libs/db'); // Prisma: only `tenant`
    expect(simulate).not.toContain('libs/descheduler'); // lazy import (scripts/build.cjs LAZY_IMPORTS)
    // Lazy import too, and nothing builds a schema from it at load (run options, timeline input).
    expect(simulate).not.toContain('libs/scenarios');
  });

  it('runs compiled modules without comments that require exact files, aliases included (scripts/build.cjs)', () => {
    const compiled = readFileSync(
      path.join(__dirname, '../../../dist/apps/cli/src/engine/run-simulation.js'),
      'utf8',
    );
    expect(compiled).toContain('require("../../../../libs/analysis/src/index.js")');
    expect(compiled).toContain('require("./workloads.js")');
    const documented = readFileSync(
      path.join(__dirname, '../../../dist/libs/analysis/src/run-options.js'),
      'utf8',
    );
    expect(documented).toContain('RUN_OPTIONS');
    expect(documented).not.toContain('/**');
  });

  it('loads the CLI within its own evaluation when dist/ is fresh (Node caches stats only then)', () => {
    execFileSync(process.execPath, [bin, '--version']); // fresh from here on
    const script = [
      `process.argv.splice(1, 0, ${JSON.stringify(bin)}, '--version');`,
      `process.exit = () => undefined;`,
      `require(${JSON.stringify(bin)});`,
      `const main = Object.keys(require.cache).some((f) => /[/\\\\]dist[/\\\\]apps[/\\\\]cli[/\\\\]src[/\\\\]main\\.js$/.test(f));`,
      `process.stderr.write('\\nmain loaded: ' + main + '\\n');`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(run.stderr).toContain('main loaded: true');
  });

  it('fails with usage help on an unknown command', () => {
    expect(() => execFileSync(process.execPath, [bin, 'no-such-command'], { stdio: 'pipe' })).toThrow(
      /unknown command 'no-such-command'/,
    );
  });
});

describe('reportStatus', () => {
  let server: Server;
  let readyz: { code: number; body: unknown };
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(req.url === '/readyz' ? readyz.code : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(readyz.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('is true and lists the checks when the api is ready', async () => {
    readyz = { code: 200, body: { status: 'ready', checks: { postgres: 'up', redis: 'up' } } };
    const lines: string[] = [];
    await expect(reportStatus(baseUrl, (l) => lines.push(l))).resolves.toBe(true);
    expect(lines).toEqual([`api ${baseUrl}: ready`, '  postgres: up', '  redis: up']);
  });

  it('is false and names the dependency that is down', async () => {
    readyz = {
      code: 503,
      body: { status: 'unavailable: redis down', checks: { postgres: 'up', redis: 'down' } },
    };
    const lines: string[] = [];
    await expect(reportStatus(baseUrl, (l) => lines.push(l))).resolves.toBe(false);
    expect(lines).toContain('  redis: down');
  });

  it('is false when nothing listens at the address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const lines: string[] = [];
    await expect(reportStatus(url, (l) => lines.push(l))).resolves.toBe(false);
    expect(lines[0]).toMatch(/unreachable/);
  });
});
