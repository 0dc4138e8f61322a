/**
 * A workaround for BullMQ 5 objects whose first connection to Redis never succeeded (Redis down
 * at start-up, as /readyz must be able to report): closed while a connection attempt is in
 * flight, the connection's pending start-up fails after close() has removed every listener, and
 * its 'error' (ECONNREFUSED) becomes an unhandled rejection: a crash at shutdown, and a test
 * failing at random (it depends on whether close() lands during an attempt or between two).
 * It reaches into BullMQ's (private) RedisConnection, and is kept here, in one place.
 */
import type { EventEmitter } from 'node:events';

type BullmqObject = { close(): Promise<void> };
type WithConnections = { connection: EventEmitter; blockingConnection?: EventEmitter };

const ignore = () => undefined;

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
