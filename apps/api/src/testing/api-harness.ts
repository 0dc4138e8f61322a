import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import Redis from 'ioredis';
import { redisOptionsFromUrl } from '@schedlab/queues';
import { RunExecutor, type ExecutionOutcome } from '@schedlab/runs';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient, type PrismaClient } from '@schedlab/db';
import { createTestDatabase, testConfig, type TestDatabase } from '@schedlab/testing';
import { createApiApp } from '../app';

export interface TestTenant {
  id: string;
  name: string;
  key: string;
}

/** An in-process api on a fresh database with real Redis, plus tenants with admin keys. */
export class ApiHarness {
  app!: INestApplication;
  db!: TestDatabase;
  prisma!: PrismaClient;
  readonly config: ReturnType<typeof testConfig>;
  private redis?: Redis;

  private constructor(env: NodeJS.ProcessEnv) {
    this.config = testConfig(env);
  }

  static async start(env: NodeJS.ProcessEnv = {}): Promise<ApiHarness> {
    const db = await createTestDatabase({ migrated: true });
    const harness = new ApiHarness({ DATABASE_URL: db.url, ...env });
    harness.db = db;
    harness.prisma = createPrismaClient(db.url);
    harness.app = await createApiApp(harness.config);
    await harness.app.init();
    return harness;
  }

  get http() {
    return request(this.app.getHttpServer());
  }

  async tenant(name: string): Promise<TestTenant> {
    const created = await createTenantWithAdminKey(this.prisma, name);
    return { id: created.tenant.id, name, key: created.apiKey.secret };
  }

  /**
   * Runs a queued run to its end as a worker would (RunExecutor and its engine thread) on this
   * harness's database.
   */
  async executeRun(
    runId: string,
    { runTimeoutMs = 120_000, publicApiUrl = 'https://schedlab.example' } = {},
  ): Promise<ExecutionOutcome> {
    this.redis ??= new Redis(redisOptionsFromUrl(this.config.redisUrl));
    const executor = new RunExecutor(this.prisma, this.redis, {
      runTimeoutMs,
      maxAttempts: 3,
      publicApiUrl,
      databaseUrl: this.db.url,
    });
    return executor.execute(runId);
  }

  async stop(): Promise<void> {
    this.redis?.disconnect();
    await this.app?.close();
    await this.prisma?.$disconnect();
    await this.db?.drop();
  }
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
