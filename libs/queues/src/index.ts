export { QueueName, QUEUE_NAMES } from './queues';
export { redisOptionsFromUrl } from './redis-connection';
export { QueuesModule } from './queues.module';
export { closeEvenIfNeverConnected, ignoreErrorsAfterClose } from './bullmq-shutdown';
export {
  SIMULATIONS_QUEUE,
  SIMULATE_JOB,
  SWEEPS_QUEUE,
  AGGREGATE_JOB,
  simulationJobDataSchema,
  type SimulationJobData,
  runProgressChannel,
  runProgressSchema,
  type RunProgress,
  enqueueRun,
  enqueueSweep,
  enqueueSweepAggregation,
} from './simulations';
