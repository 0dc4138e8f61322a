/**
 * Tenant-facing management of webhook endpoints: register (the secret is returned once), list,
 * rotate the secret, disable/enable, delete, list deliveries with their attempts, redeliver.
 * Every query is scoped by tenant id, so another tenant's endpoint is "not found" like a missing one.
 */
import { z } from 'zod';
import type { DbClient } from './db-client';
import { WEBHOOK_EVENT_TYPES } from './events';
import { generateWebhookSecret } from './signing';
import { type AddressPolicy, type Resolver, resolveWebhookTarget, systemResolver } from './ssrf-guard';

export const registerEndpointSchema = z
  .object({
    url: z.string().url('must be an absolute http(s) URL').max(2048),
    eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'must name at least one event type'),
  })
  .strict();
export type RegisterEndpointInput = z.infer<typeof registerEndpointSchema>;

export class WebhookNotFoundError extends Error {
  constructor(kind: 'endpoint' | 'delivery', id: string) {
    super(`Webhook ${kind} ${id} not found`);
    this.name = 'WebhookNotFoundError';
  }
}

export interface EndpointView {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: Date;
  updatedAt: Date;
}

const endpointColumns = {
  id: true,
  url: true,
  eventTypes: true,
  enabled: true,
  disabledReason: true,
  consecutiveFailures: true,
  createdAt: true,
  updatedAt: true,
} as const;

const isUuid = (id: string) => z.string().uuid().safeParse(id).success;

export class WebhookEndpoints {
  constructor(
    private readonly prisma: DbClient,
    private readonly policy: AddressPolicy,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  /** Checks the URL (SSRF guard), stores the endpoint and returns it with its secret, once. */
  async register(tenantId: string, input: RegisterEndpointInput): Promise<EndpointView & { secret: string }> {
    await resolveWebhookTarget(input.url, this.policy, this.resolver);
    const secret = generateWebhookSecret();
    const row = await this.prisma.webhookEndpoint.create({
      data: { tenantId, url: input.url, eventTypes: [...new Set(input.eventTypes)], secret },
      select: endpointColumns,
    });
    return { ...row, secret };
  }

  list(tenantId: string): Promise<EndpointView[]> {
    return this.prisma.webhookEndpoint.findMany({
      where: { tenantId },
      select: endpointColumns,
      orderBy: { createdAt: 'asc' },
    });
  }

  async get(tenantId: string, id: string): Promise<EndpointView> {
    const row = isUuid(id)
      ? await this.prisma.webhookEndpoint.findFirst({ where: { id, tenantId }, select: endpointColumns })
      : null;
    if (!row) throw new WebhookNotFoundError('endpoint', id);
    return row;
  }

  /** A new secret replaces the old at once; deliveries signed from now on use it. */
  async rotateSecret(tenantId: string, id: string): Promise<EndpointView & { secret: string }> {
    await this.get(tenantId, id);
    const secret = generateWebhookSecret();
    const row = await this.prisma.webhookEndpoint.update({ where: { id }, data: { secret }, select: endpointColumns });
    return { ...row, secret };
  }

  /** Enabling clears the failure count and reason; pending deliveries then go out again. */
  async setEnabled(tenantId: string, id: string, enabled: boolean): Promise<EndpointView> {
    await this.get(tenantId, id);
    return this.prisma.webhookEndpoint.update({
      where: { id },
      data: enabled
        ? { enabled: true, disabledReason: null, consecutiveFailures: 0 }
        : { enabled: false, disabledReason: 'disabled by the tenant' },
      select: endpointColumns,
    });
  }

  async remove(tenantId: string, id: string): Promise<void> {
    const { count } = isUuid(id) ? await this.prisma.webhookEndpoint.deleteMany({ where: { id, tenantId } }) : { count: 0 };
    if (count === 0) throw new WebhookNotFoundError('endpoint', id);
  }

  /** Newest deliveries first, each with every attempt (status, latency, truncated response). */
  async deliveries(tenantId: string, endpointId: string, limit = 50) {
    await this.get(tenantId, endpointId);
    return this.prisma.webhookDelivery.findMany({
      where: { endpointId },
      orderBy: { createdAt: 'desc' },
      take: Math.min(Math.max(limit, 1), 200),
      select: {
        id: true,
        eventType: true,
        status: true,
        attemptCount: true,
        nextAttemptAt: true,
        createdAt: true,
        payload: true,
        attempts: {
          orderBy: { createdAt: 'asc' },
          select: { id: true, statusCode: true, latencyMs: true, responseSnippet: true, error: true, createdAt: true },
        },
      },
    });
  }

  /**
   * Sends a delivery again with the same webhook-id (receivers de-duplicate on it), as a fresh
   * series of attempts; earlier attempts stay in the log.
   */
  async redeliver(tenantId: string, deliveryId: string) {
    const { count } = await this.prisma.webhookDelivery.updateMany({
      where: { id: deliveryId, endpoint: { tenantId } },
      data: { status: 'pending', attemptCount: 0, nextAttemptAt: new Date() },
    });
    if (count === 0) throw new WebhookNotFoundError('delivery', deliveryId);
    return this.prisma.webhookDelivery.findUniqueOrThrow({
      where: { id: deliveryId },
      select: { id: true, eventType: true, status: true, attemptCount: true, nextAttemptAt: true },
    });
  }
}
