import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@schedlab/config';
import { QueueName } from './queues';
import { redisOptionsFromUrl } from './redis-connection';

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
    BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name }))),
  ],
  exports: [BullModule],
})
export class QueuesModule {}
