import { createServer, type Server } from 'node:http';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient } from '@schedlab/db';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { WebhookDispatcher } from './dispatcher';
import { recordWebhookEvent } from './events';
import { generateWebhookSecret } from './signing';

/** The dispatcher against real PostgreSQL and a receiver on loopback. */
describe('WebhookDispatcher (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  let tenantId: string;
  let server: Server;
  let url: string;
  let answer: { status: number; headers?: Record<string, string> } = { status: 200 };
  let hits = 0;
  const quiet = { log: () => undefined, warn: () => undefined };
  const settings = {
    allowHosts: [],
    allowLoopback: true,
    timeoutMs: 5000,
    retryBaseMs: 1,
    maxAttempts: 3,
    disableAfterFailures: 2,
    pollIntervalMs: 50,
  };

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    tenantId = (await createTenantWithAdminKey(prisma, uniqueName('hooks'))).tenant.id;
    server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on('end', () => res.writeHead(answer.status, answer.headers).end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function endpointWithEvent(endpointUrl = url) {
    const endpoint = await prisma.webhookEndpoint.create({
      data: {
        tenantId,
        url: endpointUrl,
        eventTypes: ['simulation.failed'],
        secret: generateWebhookSecret(),
      },
    });
    await prisma.$transaction((tx) =>
      recordWebhookEvent(tx, { tenantId, type: 'simulation.failed', data: { runId: 'r' } }),
    );
    const delivery = await prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    return { endpoint, delivery };
  }

  /** Makes every pending delivery due now and runs one dispatch pass. */
  async function pass(dispatcher: WebhookDispatcher) {
    await prisma.webhookDelivery.updateMany({
      where: { status: 'pending' },
      data: { nextAttemptAt: new Date() },
    });
    return dispatcher.deliverDue();
  }

  afterEach(async () => {
    await prisma.webhookEndpoint.deleteMany({});
    hits = 0;
  });

  it('disables an endpoint after the configured number of consecutive failed attempts', async () => {
    answer = { status: 500 };
    const { endpoint, delivery } = await endpointWithEvent();
    const dispatcher = new WebhookDispatcher(prisma, settings, quiet);
    await pass(dispatcher);
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: true,
      consecutiveFailures: 1,
    });
    await pass(dispatcher);
    const disabled = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(disabled).toMatchObject({ enabled: false, consecutiveFailures: 2 });
    expect(disabled.disabledReason).toMatch(/2 consecutive failed attempts \(last: receiver answered 500\)/);
    // A disabled endpoint's pending delivery is not attempted again.
    expect(await pass(dispatcher)).toBe(0);
    expect(await prisma.webhookAttempt.count({ where: { deliveryId: delivery.id } })).toBe(2);
  });

  it('abandons a delivery after the attempt limit', async () => {
    answer = { status: 503 };
    const { delivery } = await endpointWithEvent();
    const dispatcher = new WebhookDispatcher(prisma, { ...settings, disableAfterFailures: 100 }, quiet);
    for (let i = 0; i < 3; i++) await pass(dispatcher);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: 'abandoned',
      attemptCount: 3,
    });
    expect(hits).toBe(3);
  });

  it('waits as long as Retry-After asks on 429', async () => {
    answer = { status: 429, headers: { 'retry-after': '120' } };
    const { delivery } = await endpointWithEvent();
    const before = Date.now();
    await new WebhookDispatcher(prisma, settings, quiet).deliverDue();
    const row = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row.status).toBe('pending');
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 120_000);
  });

  it('checks the address again at delivery time and refuses a private one without sending anything', async () => {
    const { delivery } = await endpointWithEvent('http://10.0.0.1/hook');
    await new WebhookDispatcher(prisma, settings, quiet).deliverDue();
    const attempts = await prisma.webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ statusCode: null });
    expect(attempts[0]!.error).toMatch(/10.0.0.1, a private address/);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: 'failed',
    });
  });

  it('does not retry a 4xx other than 410/429', async () => {
    answer = { status: 400 };
    const { endpoint, delivery } = await endpointWithEvent();
    await new WebhookDispatcher(prisma, settings, quiet).deliverDue();
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: 'failed',
      attemptCount: 1,
      nextAttemptAt: null,
    });
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: true,
    });
  });
});
