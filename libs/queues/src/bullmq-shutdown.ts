/**
 * Workarounds for BullMQ 5 objects whose first connection to Redis never succeeded (Redis down
 * at start-up, as /readyz must be able to report):
 * - the aborted connection attempt emits 'error' after close() has removed every listener,
 *   which Node turns into an uncaught exception;
 * - QueueEvents.close() first awaits a client that never arrives, so shutdown hangs; and when
 *   ioredis is disconnected between two reconnect attempts it never emits 'end', so BullMQ's
 *   wait for that client never settles either.
 * Both reach into BullMQ's (private) RedisConnection; they are kept here, in one place.
 */
import type { EventEmitter } from 'node:events';

type RedisConnectionLike = EventEmitter & {
  status: string;
  close(force?: boolean): Promise<void>;
  _client?: EventEmitter;
};
type BullmqObject = { close(): Promise<void> };

const ignore = () => undefined;

function connectionOf(target: BullmqObject): RedisConnectionLike {
  return (target as unknown as { connection: RedisConnectionLike }).connection;
}

/** Keep a no-op 'error' listener on the object's connection, even after close() strips listeners. */
export function ignoreErrorsAfterClose(target: BullmqObject): void {
  const connection = connectionOf(target);
  const removeAllListeners = connection.removeAllListeners.bind(connection);
  connection.removeAllListeners = (...args: Parameters<EventEmitter['removeAllListeners']>) => {
    removeAllListeners(...args);
    return connection.on('error', ignore);
  };
}

/** Close a QueueEvents (or any BullMQ object) whether or not it ever reached Redis. */
export async function closeEvenIfNeverConnected(target: BullmqObject): Promise<void> {
  ignoreErrorsAfterClose(target);
  const connection = connectionOf(target);
  if (connection.status === 'initializing') {
    const client = connection._client;
    await connection.close(true).catch(ignore);
    client?.emit('end'); // settles BullMQ's pending wait for 'ready' (see above)
  }
  await target.close().catch(ignore);
}
