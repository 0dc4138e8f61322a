import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { deleteQueueKeys, eventually } from './run-fixtures';

const workspaceRoot = path.resolve(__dirname, '..', '..', '..');

/**
 * `npm run up`'s last step, scripts/start-all.cjs, as a user runs it (no NODE_ENV set): the compiled
 * api and worker start in production mode (JSON log lines, a report-link key made for the session
 * since production requires one), the banner names the mode and the endpoints, and a variable
 * set under its deprecated name is read with one warning per process.
 */
describe('npm run up runs the compiled apps in production mode (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let child: ChildProcess;
  let output = '';
  let stdout = '';
  const prefix = uniqueName('e2e');

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: db.url,
      SCHEDLAB_API_PORT: '0',
      SCHEDLAB_WORKER_METRICS_PORT: '0',
      SCHEDLAB_QUEUE_PREFIX: prefix,
      // The old name of SCHEDLAB_LOG_LEVEL: still read, with a warning.
      LOG_LEVEL: 'info',
    };
    // Jest sets NODE_ENV=test; a user's shell sets nothing.
    delete env.NODE_ENV;
    delete env.SCHEDLAB_REPORT_LINK_SECRET;
    delete env.REPORT_LINK_SECRET;
    child = spawn(process.execPath, [path.join(workspaceRoot, 'scripts', 'start-all.cjs')], {
      cwd: workspaceRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => (output += chunk));
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await deleteQueueKeys(prefix);
    await db?.drop();
  });

  it('prints the banner with NODE_ENV=production, answers, logs JSON and warns once per process', async () => {
    const liveness = await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`start-all exited ${child.exitCode}:\n${output}`);
      return /Liveness\s+(\S+)/.exec(stdout)?.[1];
    });
    expect(stdout).toContain('Schedlab is running, NODE_ENV=production');
    expect(stdout).toContain('Report links are signed with a key made for this session');

    expect((await fetch(liveness)).status).toBe(200);
    const readiness = /Readiness\s+(\S+)/.exec(stdout)?.[1] ?? 'readiness missing from the banner';
    await eventually(async () => ((await fetch(readiness)).status === 200 ? true : undefined));

    // Production logs are JSON lines: the api's start-up line among them, parsed as it is.
    const complete = stdout.slice(0, stdout.lastIndexOf('\n')).split('\n');
    const json = complete
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string });
    expect(complete.filter((line) => /^\d\d:\d\d:\d\d (INFO|WARN)/.test(line))).toEqual([]);
    const listening = json.find((l) => l.msg === 'api listening');
    expect(listening).toBeDefined();

    // The worker has started too (its warning is written before it connects).
    await eventually(async () =>
      output.match(/warning: Deprecated environment variable names/g)?.length === 2 ? true : undefined,
    );
    expect(output).toContain('LOG_LEVEL → SCHEDLAB_LOG_LEVEL');
  });
});
