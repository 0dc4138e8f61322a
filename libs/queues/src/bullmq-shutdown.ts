/**
 * Workarounds for BullMQ 5 objects whose first connection to Redis never succeeded (Redis down
 * at start-up, as /readyz must be able to report):
 * - closed while a connection attempt is in flight, the connection's pending start-up fails
 *   after close() has removed every listener, and its 'error' (ECONNREFUSED) becomes an unhandled
 *   rejection: a crash at shutdown, and a test failing at random (it depends on whether close()
 *   lands during an attempt or between two);
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
type WithConnections = { connection: RedisConnectionLike; blockingConnection?: RedisConnectionLike };

const ignore = () => undefined;

function connectionOf(target: BullmqObject): RedisConnectionLike {
  return (target as unknown as WithConnections).connection;
}

/**
 * Keep a no-op 'error' listener on the object's connections (a Worker also has a blocking one),
 * even after close() strips their listeners. Every Queue, FlowProducer and Worker Schedlab
 * creates gets it when it is created.
 */
export function ignoreErrorsAfterClose(target: BullmqObject): void {
  const { connection, blockingConnection } = target as unknown as WithConnections;
  for (const each of blockingConnection ? [connection, blockingConnection] : [connection]) {
    const removeAllListeners = each.removeAllListeners.bind(each);
    each.removeAllListeners = (...args: Parameters<EventEmitter['removeAllListeners']>) => {
      removeAllListeners(...args);
      return each.on('error', ignore);
    };
  }
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
