// Prisma CLI configuration. Runs the schema engine as WebAssembly (no native binary download);
// see prisma/migration-adapter.ts for why and for the adapter fixes that this needs.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
// The Nest-free entry of @schedlab/config, so the CLI does not load Nest.
import { loadConfig } from './libs/config/src/app-config';
import { MigrationAdapterFactory, unrefWasmEngineTimers } from './prisma/migration-adapter';

// schema.prisma reads env("DATABASE_URL"); fill in the same validated default the apps use.
const { databaseUrl } = loadConfig();
process.env.DATABASE_URL = databaseUrl;
unrefWasmEngineTimers();

export default defineConfig({
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new MigrationAdapterFactory(databaseUrl),
});
