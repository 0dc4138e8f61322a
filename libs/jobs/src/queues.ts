import { z } from 'zod';

/** BullMQ queue names. One queue per job type keeps retries and concurrency independent. */
export const QueueName = {
  Ping: 'ping',
  Simulations: 'simulations',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/**
 * What travels through Redis for a ping job: only the row id. The database row is the
 * source of truth for payload and result, so a job can be inspected without Redis.
 */
export const pingJobDataSchema = z.object({ pingJobId: z.string().uuid() });
export type PingJobData = z.infer<typeof pingJobDataSchema>;

/** What a finished ping job stores as its result. */
export const pingResultSchema = z.object({
  echo: z.string(),
  processedBy: z.string(),
  processedAt: z.string().datetime(),
});
export type PingResult = z.infer<typeof pingResultSchema>;
