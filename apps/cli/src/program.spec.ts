import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createProgram } from './program';
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

  it('prints the version it was given', async () => {
    let out = '';
    const program = createProgram({ version: '1.2.3', out: (t) => (out += t) }).exitOverride();
    await expect(program.parseAsync(['node', 'schedlab', '--version'])).rejects.toThrow('1.2.3');
    expect(out.trim()).toBe('1.2.3');
  });
});

describe('the schedlab bin', () => {
  it('runs from TypeScript sources and reports the workspace version', () => {
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).trim()).toBe(rootVersion);
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
