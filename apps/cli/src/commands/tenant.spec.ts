import { createPrismaClient } from '@schedlab/db';
import { findApiKeyBySecret } from '@schedlab/tenancy';
import { createTestDatabase, type TestDatabase } from '@schedlab/testing';
import { createProgram } from '../program';

describe('schedlab tenant create (real PostgreSQL)', () => {
  let db: TestDatabase;
  const savedUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    process.env.DATABASE_URL = db.url;
  });
  afterAll(async () => {
    // Restore first: dropping connects to the server named by DATABASE_URL.
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    await db?.drop();
  });

  async function run(args: string[]) {
    let out = '';
    let err = '';
    process.exitCode = undefined;
    await createProgram({ version: '0', out: (t) => (out += t), err: (t) => (err += t) }).parseAsync([
      'node',
      'schedlab',
      ...args,
    ]);
    const code = process.exitCode;
    process.exitCode = undefined;
    return { out, err, code };
  }

  it('creates the tenant and prints an admin key that authenticates', async () => {
    const { out } = await run(['tenant', 'create', 'acme', '--json']);
    const created = JSON.parse(out);
    expect(created.tenant.name).toBe('acme');
    const prisma = createPrismaClient(db.url);
    try {
      expect(await findApiKeyBySecret(prisma, created.apiKey.secret)).toMatchObject({
        tenantId: created.tenant.id,
        scopes: ['read', 'write', 'admin'],
      });
    } finally {
      await prisma.$disconnect();
    }
  });

  it('refuses a name that is taken, with exit code 1', async () => {
    const { err, code } = await run(['tenant', 'create', 'acme']);
    expect(err).toContain('Tenant "acme" already exists');
    expect(code).toBe(1);
  });
});
