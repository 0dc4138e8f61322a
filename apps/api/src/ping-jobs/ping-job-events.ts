import { EventEmitter, on } from 'node:events';
import { OnQueueEvent, QueueEventsHost, QueueEventsListener } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { closeEvenIfNeverConnected, QueueName } from '@schedlab/jobs';

/** In-process notifications that a ping job reached a final state (any worker, via Redis). */
export class PingJobFinishedEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(pingJobId: string): void {
    this.emitter.emit('finished', pingJobId);
  }

  /**
   * Starts listening immediately (unlike a lazy PubSub iterator), so a caller can read the
   * job's current state afterwards without missing a finish that happens in between.
   */
  listen(signal: AbortSignal): AsyncIterable<string> {
    const events = on(this.emitter, 'finished', { signal }) as AsyncIterableIterator<[string]>;
    return (async function* () {
      for await (const [pingJobId] of events) yield pingJobId;
    })();
  }
}

/**
 * Turns BullMQ's queue events (which every api instance receives from Redis) into
 * PingJobFinishedEvents, so GraphQL clients learn a job finished without polling.
 */
@QueueEventsListener(QueueName.Ping)
export class PingJobEventsListener extends QueueEventsHost {
  private readonly logger = new Logger(PingJobEventsListener.name);

  constructor(private readonly finished: PingJobFinishedEvents) {
    super();
  }

  @OnQueueEvent('completed')
  onCompleted({ jobId }: { jobId: string }) {
    this.finished.publish(jobId);
  }

  @OnQueueEvent('failed')
  onFailed({ jobId }: { jobId: string }) {
    this.finished.publish(jobId);
  }

  @OnQueueEvent('error')
  onError(error: Error) {
    this.logger.warn(`Ping queue events: ${error.message}`);
  }

  /** Shut down cleanly even when Redis was never reachable (see @schedlab/jobs bullmq-shutdown). */
  override onApplicationShutdown(): Promise<void> {
    return closeEvenIfNeverConnected(this.queueEvents);
  }
}
