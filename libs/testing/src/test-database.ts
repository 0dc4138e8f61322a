import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '@schedlab/config';

const execFileAsync = promisify(execFile);
const workspaceRoot = path.resolve(__dirname, '..', '..', '..');

/** The server that test databases are created on: the one DATABASE_URL points at. */
export function serverUrl(): string {
  return loadConfig().databaseUrl;
}

export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A name no other test run on this server will pick. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Runs a statement on the server's maintenance database, as createdb does: DATABASE_URL's own
 * database need not exist (on a fresh machine it does not until `npm run db:migrate`).
 */
async function admin(sql: string): Promise<void> {
  for (const database of ['postgres', 'template1']) {
    const client = new pg.Client({ connectionString: withDatabase(serverUrl(), database) });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      if ((error as { code?: string }).code === '3D000' && database !== 'template1') continue;
      throw error;
    }
    try {
      await client.query(sql);
      return;
    } finally {
      await client.end();
    }
  }
}

/** Runs the workspace's Prisma CLI (prisma.config.ts applies) against the given database. */
export async function runPrisma(
  args: string[],
  databaseUrl: string,
): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [require.resolve('prisma/build/index.js'), ...args], {
    cwd: workspaceRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty PostgreSQL database for one test file. With `migrated`, the workspace's
 * migrations are applied to it first, exactly as `npm run db:migrate` would.
 */
export async function createTestDatabase(options: { migrated: boolean }): Promise<TestDatabase> {
  const name = uniqueName('schedlab_test');
  await admin(`CREATE DATABASE "${name}"`);
  const url = withDatabase(serverUrl(), name);
  if (options.migrated) await runPrisma(['migrate', 'deploy'], url);
  return { url, name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
