import type { ConnectionOptions } from 'bullmq';
import type { AppConfig } from '@schedlab/config';
import { redisOptionsFromUrl } from '@schedlab/queues';

/**
 * Connection and key prefix for the BullMQ Workers (consumers) this process starts: a blocking
 * consumer needs `maxRetriesPerRequest: null`. Producers (Queues) are injected from QueuesModule.
 */
export function bullmqConnection(config: AppConfig): { connection: ConnectionOptions; prefix: string } {
  return {
    connection: { ...redisOptionsFromUrl(config.redisUrl), maxRetriesPerRequest: null },
    prefix: config.queuePrefix,
  };
}
