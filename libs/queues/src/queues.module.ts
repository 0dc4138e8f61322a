import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@schedlab/config';
import { ignoreErrorsAfterClose } from './bullmq-shutdown';
import { QUEUE_NAMES } from './queues';
import { redisOptionsFromUrl } from './redis-connection';

/**
 * Guards every registered queue as soon as Nest creates it, whether or not a service of the app
 * injects it: closed while Redis is down, a queue must not end the process (bullmq-shutdown.ts).
 */
const QUEUES_CLOSE_SAFELY = {
  provide: Symbol('schedlab:queues-close-safely'),
  inject: QUEUE_NAMES.map((name) => getQueueToken(name)),
  useFactory: (...queues: Queue[]) => queues.forEach(ignoreErrorsAfterClose),
};

/** BullMQ wired to the configured Redis and key prefix, with every Schedlab queue registered. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: redisOptionsFromUrl(config.redisUrl),
        prefix: config.queuePrefix,
      }),
    }),
    BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
  ],
  providers: [QUEUES_CLOSE_SAFELY],
  exports: [BullModule],
})
export class QueuesModule {}
