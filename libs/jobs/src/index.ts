export { QueueName, pingJobDataSchema, pingResultSchema, type PingJobData, type PingResult } from './queues';
export { redisOptionsFromUrl } from './redis-connection';
export { JobsModule } from './jobs.module';
export { closeEvenIfNeverConnected, ignoreErrorsAfterClose } from './bullmq-shutdown';
