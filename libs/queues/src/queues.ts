/**
 * Every BullMQ queue Schedlab uses, its job names and the data each job carries: the contracts
 * between the producers (api, reconciler) and the consumers (worker). One queue per kind of work
 * keeps retries and concurrency independent. Queue names are listed here and nowhere else.
 */
export const QueueName = {
  /**
   * One job per run (job `simulate`, data {runId}, jobId = run id). The Redis name keeps the
   * word runs had before (queued jobs and running workers of the last release use it).
   */
  Runs: 'simulations',
  /** One job per sweep (job `aggregate`, data {runId: sweep id}, jobId = sweep id). */
  Sweeps: 'sweeps',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/** Every queue, e.g. for metrics and the worker's start-up log. */
export const QUEUE_NAMES: readonly QueueName[] = Object.values(QueueName);
