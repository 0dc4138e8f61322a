import type { EventEmitter } from 'node:events';
import { getQueueToken } from '@nestjs/bullmq';
import { Test } from '@nestjs/testing';
import { FlowProducer, Queue, Worker } from 'bullmq';
import { AppConfigModule } from '@schedlab/config';
import { closedPort, testConfig } from '@schedlab/testing';
import { ignoreErrorsAfterClose } from './bullmq-shutdown';
import { QUEUE_NAMES } from './queues';
import { QueuesModule } from './queues.module';

type Closable = { close(force?: boolean): Promise<void> };
type Connection = { _client: EventEmitter };

/** The ioredis clients behind a BullMQ object (a Worker has a second, blocking one). */
function clientsOf(target: Closable): EventEmitter[] {
  const { connection, blockingConnection } = target as unknown as {
    connection: Connection;
    blockingConnection?: Connection;
  };
  return [connection, blockingConnection].filter((c) => c !== undefined).map((c) => c._client);
}

/** Resolves when every client has started its second attempt: one refusal behind it, one in flight. */
function secondAttemptsInFlight(target: Closable): Promise<void> {
  return Promise.all(
    clientsOf(target).map(
      (client) =>
        new Promise<void>((resolve) => {
          let attempts = 0;
          const onConnecting = () => {
            if (++attempts < 2) return;
            client.off('connecting', onConnecting);
            resolve();
          };
          client.on('connecting', onConnecting);
        }),
    ),
  ).then(() => undefined);
}

describe('BullMQ objects closed while Redis refuses them (a real refused port)', () => {
  let connection: { host: string; port: number };
  beforeAll(async () => {
    connection = { host: '127.0.0.1', port: await closedPort() };
  });

  // Without the guard, the refusal surfaces as an unhandled rejection after close(), and Jest
  // fails the test that is running with "connect ECONNREFUSED".
  const cases: [string, () => Closable & EventEmitter][] = [
    ['a Queue', () => new Queue('guarded', { connection })],
    ['a FlowProducer', () => new FlowProducer({ connection })],
    ['a Worker', () => new Worker('guarded', async () => undefined, { connection, autorun: false })],
  ];
  it.each(cases)('%s closes during a connection attempt without an unhandled error', async (_, create) => {
    const target = create();
    target.on('error', () => undefined); // the refusals while it is open are the owner's to log
    ignoreErrorsAfterClose(target);
    await secondAttemptsInFlight(target);
    await target.close(true);
    // The aborted start-up settles within a few event-loop turns; give it ample time to surface.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      clientsOf(target).every((client) => (client as unknown as { status: string }).status === 'end'),
    ).toBe(true);
  });

  it('every queue QueuesModule registers is guarded, injected by a service or not', async () => {
    const config = testConfig({ REDIS_URL: `redis://127.0.0.1:${connection.port}` });
    const app = await Test.createTestingModule({
      imports: [AppConfigModule.forRoot(config), QueuesModule],
    }).compile();
    const queues = QUEUE_NAMES.map((name) => app.get<Queue>(getQueueToken(name)));
    await Promise.all(queues.map(secondAttemptsInFlight));
    await app.close(); // Nest closes each queue
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(queues.every((queue) => queue.closing !== undefined)).toBe(true);
  });
});
