/**
 * Driver adapter for the Prisma CLI's WebAssembly schema engine (prisma.config.ts, engine: 'js').
 *
 * Why this exists: Prisma's default schema engine is a native binary that the CLI downloads on
 * first use, and this project's machines cannot reach that download host. Prisma 6.19's
 * experimental `engine: 'js'` runs the WASM schema engine shipped inside the `prisma` package
 * instead, talking to PostgreSQL through a driver adapter. The stock @prisma/adapter-pg needs
 * three fixes for that job, all kept here:
 *
 * 1. The engine's introspection queries return catalog columns of type `name` (oid 19) and
 *    `"char"` (oid 18), which adapter-pg 6.x rejects as unsupported (prisma/orm#27403).
 *    Both are plain text on the wire, so we report them as `text`.
 * 2. adapter-pg's shadow database is named in the pool config, but a connection string
 *    overrides it, so `migrate dev`/`diff` would run against the main database. We create,
 *    connect to and drop a real shadow database ourselves.
 * 3. The WASM engine arms long timeouts (10 s and more) that it never clears, and idle pg
 *    clients linger too, so the CLI would sit for 10-60 s after finishing. Timers armed from
 *    WASM code are unref'd and idle connections close at once.
 * 4. The native engine creates a missing database on `migrate deploy`/`dev`; the WASM engine
 *    fails with "Database does not exist", so we create it first.
 * 5. adapter-pg's executeScript splits a migration on every ";", including those inside
 *    comments, string literals and `DO $$ … $$` bodies (row-level-security setup needs them).
 *    PostgreSQL's simple-query protocol runs a multi-statement script as one implicit
 *    transaction, so we send each migration whole.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';

const PG_TEXT_OID = 25;
const CATALOG_TEXT_OIDS = new Set([18 /* "char" */, 19 /* name */]);

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

function reportCatalogTypesAsText(result: unknown): void {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const field of (r as QueryResultLike | undefined)?.fields ?? []) {
      if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = PG_TEXT_OID;
    }
  }
}

/** A pg.Client that describes catalog text types as `text`, in both callback and promise style. */
class CatalogTextClient extends pg.Client {
  override query(...args: unknown[]): never {
    const callbackIndex = args.findIndex((arg) => typeof arg === 'function');
    if (callbackIndex >= 0) {
      const callback = args[callbackIndex] as (err: Error | null, result: unknown) => void;
      args[callbackIndex] = (err: Error | null, result: unknown) => {
        if (!err) reportCatalogTypesAsText(result);
        callback(err, result);
      };
    }
    const pending = (super.query as (...a: unknown[]) => unknown)(...args);
    if (pending instanceof Promise) {
      return pending.then((result) => {
        reportCatalogTypesAsText(result);
        return result;
      }) as never;
    }
    return pending as never;
  }
}

function poolConfig(connectionString: string): pg.PoolConfig {
  return {
    connectionString,
    Client: CatalogTextClient,
    allowExitOnIdle: true,
    idleTimeoutMillis: 1,
  };
}

function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

async function runAdmin(
  connectionString: string,
  sql: string,
  params: unknown[] = [],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

async function createDatabaseIfMissing(connectionString: string): Promise<void> {
  const database = decodeURIComponent(new URL(connectionString).pathname.slice(1));
  // Connect to the server's maintenance database: the target may not exist yet.
  const maintenance = withDatabase(connectionString, 'postgres');
  const found = await runAdmin(maintenance, 'SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (found.rowCount === 0) {
    await runAdmin(maintenance, `CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  }
}

type ScriptRunner = { executeScript(script: string): Promise<void> };

/** See fix 5 above: one query per script; errors keep the adapter's own conversion. */
function sendScriptsWhole<T extends ScriptRunner>(adapter: T): T {
  const internals = adapter as unknown as {
    client: { query(sql: string): Promise<unknown> };
    onError(error: unknown): never;
  };
  adapter.executeScript = async (script: string) => {
    try {
      await internals.client.query(script);
    } catch (error) {
      internals.onError(error);
    }
  };
  return adapter;
}

/** Adapter factory for the Prisma CLI: main database plus a real, disposable shadow database. */
export class MigrationAdapterFactory extends PrismaPg {
  constructor(private readonly connectionString: string) {
    super(poolConfig(connectionString));
  }

  override async connect() {
    await createDatabaseIfMissing(this.connectionString);
    return sendScriptsWhole(await super.connect());
  }

  override async connectToShadowDb() {
    const shadowName = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
    await runAdmin(this.connectionString, `CREATE DATABASE "${shadowName}"`);
    const shadow = sendScriptsWhole(
      await new PrismaPg(poolConfig(withDatabase(this.connectionString, shadowName))).connect(),
    );
    const disposeConnection = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await disposeConnection();
      await runAdmin(this.connectionString, `DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`);
    };
    return shadow;
  }
}

/**
 * Unref every timer armed from inside WebAssembly, so the schema engine's leftover timeouts
 * cannot keep the CLI process alive. Timers from JavaScript code are untouched.
 */
export function unrefWasmEngineTimers(): void {
  const marker = Symbol.for('schedlab.unrefWasmEngineTimers');
  const globals = globalThis as typeof globalThis & { [marker]?: true };
  if (globals[marker]) return;
  globals[marker] = true;
  const originalSetTimeout = globalThis.setTimeout;
  const patched = function (this: unknown, ...args: Parameters<typeof setTimeout>) {
    const timer = originalSetTimeout.apply(this, args);
    if (new Error().stack?.includes('wasm://')) timer.unref();
    return timer;
  };
  globalThis.setTimeout = Object.assign(patched, originalSetTimeout) as typeof setTimeout;
}
