import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { PrismaService } from '@schedlab/db';
import { redisOptionsFromUrl } from '@schedlab/queues';

export type Dependency = 'postgres' | 'redis';
export interface Readiness {
  ready: boolean;
  checks: Record<Dependency, 'up' | 'down'>;
  down: Dependency[];
}

// A probe must answer even when a dependency hangs rather than refuses; this bounds each check.
const CHECK_TIMEOUT_MS = 3000;

@Injectable()
export class ReadinessService {
  constructor(
    private readonly prisma: PrismaService,
    @InjectAppConfig() private readonly config: AppConfig,
  ) {}

  async check(): Promise<Readiness> {
    const [postgres, redis] = await Promise.all([this.prisma.isReachable(), this.redisIsReachable()]);
    const checks = { postgres: postgres ? 'up' : 'down', redis: redis ? 'up' : 'down' } as const;
    const down = (Object.keys(checks) as Dependency[]).filter((d) => checks[d] === 'down');
    return { ready: down.length === 0, checks, down };
  }

  /** A fresh connection per probe: it reflects Redis now, not a client's reconnect backlog. */
  private async redisIsReachable(): Promise<boolean> {
    const client = new Redis({
      ...redisOptionsFromUrl(this.config.redisUrl),
      lazyConnect: true,
      connectTimeout: CHECK_TIMEOUT_MS,
      commandTimeout: CHECK_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined); // the failed connect() below already reports it
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }
}
