export { QueueName, QUEUE_NAMES } from './queues';
export { redisOptionsFromUrl } from './redis-connection';
export { QueuesModule } from './queues.module';
export { ignoreErrorsAfterClose } from './bullmq-shutdown';
export {
  RUNS_QUEUE,
  RUN_JOB,
  SWEEPS_QUEUE,
  AGGREGATE_JOB,
  runJobDataSchema,
  type RunJobData,
  runProgressChannel,
  runProgressSchema,
  type RunProgress,
  enqueueRun,
  enqueueSweep,
  enqueueSweepAggregation,
} from './runs';
