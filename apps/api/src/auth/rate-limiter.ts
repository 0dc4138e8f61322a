import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { ApiRedis } from '../common/redis';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

const WINDOW_SECONDS = 60;

/**
 * Fixed one-minute windows per tenant in Redis (INCR + EXPIRE in one MULTI), so the limit holds
 * across every api instance. A window's count lives only as long as the window.
 */
@Injectable()
export class TenantRateLimiter {
  private readonly limit: number;

  constructor(
    private readonly redis: ApiRedis,
    @InjectAppConfig() config: AppConfig,
  ) {
    this.limit = config.apiLimits.requestsPerMinute;
  }

  async consume(tenantId: string, nowMs = Date.now()): Promise<RateDecision> {
    const window = Math.floor(nowMs / 1000 / WINDOW_SECONDS);
    const key = `${this.redis.keyPrefix}:ratelimit:${tenantId}:${window}`;
    const results = await this.redis.commands
      .multi()
      .incr(key)
      .expire(key, WINDOW_SECONDS * 2)
      .exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const windowEndsMs = (window + 1) * WINDOW_SECONDS * 1000;
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      retryAfterSeconds: Math.max(1, Math.ceil((windowEndsMs - nowMs) / 1000)),
    };
  }
}
