import { EventEmitter, on } from 'node:events';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { type RunProgress, runProgressChannel, runProgressSchema } from '@schedlab/queues';
import { ApiRedis } from '../common/redis';

/**
 * Relays run progress that workers publish on Redis (channel run-progress:<runId>) to this api
 * instance's subscribers. A channel is subscribed while at least one client listens to it, so
 * progress from any worker reaches every api instance that has a listener.
 */
@Injectable()
export class RunProgressRelay implements OnModuleDestroy {
  private readonly logger = new Logger(RunProgressRelay.name);
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly listeners = new Map<string, number>();

  constructor(private readonly redis: ApiRedis) {
    redis.subscriber.on('message', (channel: string, message: string) => {
      try {
        const progress = runProgressSchema.parse(JSON.parse(message));
        if (runProgressChannel(progress.runId) === channel) this.emitter.emit(channel, progress);
      } catch (error) {
        this.logger.warn(`Ignoring malformed progress on ${channel}: ${(error as Error).message}`);
      }
    });
  }

  /** Subscribed before it returns, so a caller can read the current state afterwards without a gap. */
  async listen(runId: string, signal: AbortSignal): Promise<AsyncIterable<RunProgress>> {
    const channel = runProgressChannel(runId);
    const events = on(this.emitter, channel, { signal }) as AsyncIterableIterator<[RunProgress]>;
    const count = this.listeners.get(channel) ?? 0;
    this.listeners.set(channel, count + 1);
    if (count === 0) await this.redis.subscriber.subscribe(channel);
    signal.addEventListener('abort', () => void this.release(channel), { once: true });
    return (async function* () {
      try {
        for await (const [progress] of events) yield progress;
      } catch (error) {
        if ((error as Error).name !== 'AbortError') throw error;
      }
    })();
  }

  private async release(channel: string): Promise<void> {
    const count = (this.listeners.get(channel) ?? 1) - 1;
    if (count > 0) return void this.listeners.set(channel, count);
    this.listeners.delete(channel);
    await this.redis.subscriber.unsubscribe(channel).catch(() => undefined);
  }

  onModuleDestroy(): void {
    this.emitter.removeAllListeners();
  }
}
