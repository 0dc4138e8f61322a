/**
 * The API contract as files: the GraphQL SDL (apps/api/schema.graphql) and the OpenAPI document
 * (apps/api/openapi.json), both generated from the code (resolvers and controllers) by
 * `npm run api:contract` and committed, so a contract change shows in review. `--check` (CI, and
 * contract.spec.ts) fails when the committed files differ from what the code generates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { loadConfig } from '@schedlab/config';
import { createApiApp, openApiDocument } from './app';

export const CONTRACT_FILES = {
  schema: path.resolve(__dirname, '..', 'schema.graphql'),
  openapi: path.resolve(__dirname, '..', 'openapi.json'),
} as const;

export interface ApiContract {
  schema: string;
  openapi: string;
}

/** Builds the api (nothing listens; no database or Redis is needed) and prints its contract. */
export async function generateApiContract(): Promise<ApiContract> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    SCHEDLAB_LOG_LEVEL: 'silent',
    SCHEDLAB_OPERATOR_TOKEN: undefined,
    // Deprecated names the caller's environment may still carry.
    LOG_LEVEL: undefined,
    OPERATOR_TOKEN: undefined,
  });
  const app = await createApiApp(config);
  try {
    await app.init();
    const schema = printSchema(lexicographicSortSchema(app.get(GraphQLSchemaHost).schema));
    const openapi = JSON.stringify(openApiDocument(app), null, 2);
    return { schema: `${schema}\n`, openapi: `${openapi}\n` };
  } finally {
    await app.close();
  }
}

/** The committed files that differ from the generated contract. */
export function contractDrift(contract: ApiContract): (keyof ApiContract)[] {
  return (Object.keys(CONTRACT_FILES) as (keyof ApiContract)[]).filter((key) => {
    let committed = '';
    try {
      committed = readFileSync(CONTRACT_FILES[key], 'utf8');
    } catch {
      /* missing counts as drift */
    }
    return committed !== contract[key];
  });
}

export function writeApiContract(contract: ApiContract): void {
  for (const key of Object.keys(CONTRACT_FILES) as (keyof ApiContract)[]) {
    writeFileSync(CONTRACT_FILES[key], contract[key]);
  }
}

async function main(): Promise<void> {
  const contract = await generateApiContract();
  if (process.argv.includes('--check')) {
    const drift = contractDrift(contract);
    if (drift.length > 0) {
      const files = drift.map((key) => path.relative(process.cwd(), CONTRACT_FILES[key])).join(', ');
      process.stderr.write(`API contract drift: ${files} differ from the code; run npm run api:contract\n`);
      process.exit(1);
    }
    process.stdout.write('API contract: committed schema.graphql and openapi.json match the code\n');
    return;
  }
  writeApiContract(contract);
  process.stdout.write(
    `API contract written: ${Object.values(CONTRACT_FILES as Record<string, string>).join(', ')}\n`,
  );
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
