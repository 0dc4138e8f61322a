import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { redisOptionsFromUrl } from '@schedlab/queues';

/**
 * The api's own Redis connections (BullMQ keeps its own): `commands` for rate limiting,
 * `subscriber` for run-progress pub/sub (a subscribed connection cannot run commands).
 */
@Injectable()
export class ApiRedis implements OnApplicationShutdown {
  readonly commands: Redis;
  readonly subscriber: Redis;
  readonly keyPrefix: string;

  constructor(@InjectAppConfig() config: AppConfig) {
    const options = { ...redisOptionsFromUrl(config.redisUrl), lazyConnect: true, maxRetriesPerRequest: 2 };
    this.commands = new Redis(options);
    this.subscriber = new Redis(options);
    // Without listeners a lost connection would be an unhandled 'error' event; readiness reports it.
    this.commands.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    this.keyPrefix = config.queuePrefix;
  }

  async onApplicationShutdown(): Promise<void> {
    this.commands.disconnect();
    this.subscriber.disconnect();
  }
}

export const InjectApiRedis = () => Inject(ApiRedis);

@Global()
@Module({ providers: [ApiRedis], exports: [ApiRedis] })
export class ApiRedisModule {}
