import pg from 'pg';
import { createTestDatabase, runPrisma, type TestDatabase } from '@schedlab/testing';

async function tablesIn(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    return rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

const ALL_TABLES = [
  '_prisma_migrations',
  'api_keys',
  'placements',
  'pod_explanations',
  'run_results',
  'scenarios',
  'scheduler_profiles',
  'simulation_runs',
  'snapshots',
  'tenants',
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
];

describe('migrations (real PostgreSQL, offline WASM schema engine)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: false });
  });
  afterAll(() => db?.drop());

  it('apply to an empty database', async () => {
    expect(await tablesIn(db.url)).toEqual([]);
    const { stdout } = await runPrisma(['migrate', 'deploy'], db.url);
    expect(stdout).toMatch(/All migrations have been successfully applied/);
    expect(await tablesIn(db.url)).toEqual(ALL_TABLES);
  });

  it('are idempotent: a second deploy applies nothing and changes nothing', async () => {
    const { stdout } = await runPrisma(['migrate', 'deploy'], db.url);
    expect(stdout).toMatch(/No pending migrations to apply/);
    expect(await tablesIn(db.url)).toEqual(ALL_TABLES);
  });

  it('leave the database matching the migration history', async () => {
    const { stdout } = await runPrisma(['migrate', 'status'], db.url);
    expect(stdout).toMatch(/Database schema is up to date/);
  });

  it('match schema.prisma (no drift between schema and migrations)', async () => {
    // --exit-code makes Prisma exit 2 on any difference, which rejects here.
    const args = [
      'migrate',
      'diff',
      '--from-migrations',
      'prisma/migrations',
      '--to-schema-datamodel',
      'prisma/schema.prisma',
      '--exit-code',
    ];
    await expect(runPrisma(args, db.url)).resolves.toBeDefined();
  });
});
