/**
 * Tenant-facing management of webhook endpoints: register (the secret is returned once), list,
 * rotate the secret, disable/enable, delete, list deliveries with their attempts, redeliver.
 * Every query is scoped by tenant id, so another tenant's endpoint is "not found" like a missing one.
 */
import { z } from 'zod';
import { type Db, WebhookRepository } from '@schedlab/db';
import { WEBHOOK_EVENT_TYPES } from './events';
import { generateWebhookSecret } from './signing';
import { type AddressPolicy, type Resolver, resolveWebhookTarget, systemResolver } from './ssrf-guard';

export const registerEndpointSchema = z
  .object({
    url: z
      .string()
      .url('must be an absolute http(s) URL')
      .max(2048)
      .meta({ example: 'https://hooks.example.com/schedlab' }),
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

const isUuid = (id: string) => z.string().uuid().safeParse(id).success;

export class WebhookEndpoints {
  private readonly webhooks = new WebhookRepository();

  /** `db`: the client, or (in the api) the tenant's transaction. */
  constructor(
    private readonly db: Db,
    private readonly policy: AddressPolicy,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  /** Checks the URL (SSRF guard), stores the endpoint and returns it with its secret, once. */
  async register(tenantId: string, input: RegisterEndpointInput): Promise<EndpointView & { secret: string }> {
    await resolveWebhookTarget(input.url, this.policy, this.resolver);
    const secret = generateWebhookSecret();
    const row = await this.webhooks.createEndpoint(this.db, {
      tenantId,
      url: input.url,
      eventTypes: [...new Set(input.eventTypes)],
      secret,
    });
    return { ...row, secret };
  }

  list(tenantId: string): Promise<EndpointView[]> {
    return this.webhooks.listEndpoints(this.db, tenantId);
  }

  async get(tenantId: string, id: string): Promise<EndpointView> {
    const row = isUuid(id) ? await this.webhooks.findEndpoint(this.db, tenantId, id) : null;
    if (!row) throw new WebhookNotFoundError('endpoint', id);
    return row;
  }

  /** A new secret replaces the old at once; deliveries signed from now on use it. */
  async rotateSecret(tenantId: string, id: string): Promise<EndpointView & { secret: string }> {
    await this.get(tenantId, id);
    const secret = generateWebhookSecret();
    const row = await this.webhooks.updateEndpoint(this.db, id, { secret });
    return { ...row, secret };
  }

  /** Enabling clears the failure count and reason; pending deliveries then go out again. */
  async setEnabled(tenantId: string, id: string, enabled: boolean): Promise<EndpointView> {
    await this.get(tenantId, id);
    return this.webhooks.updateEndpoint(
      this.db,
      id,
      enabled
        ? { enabled: true, disabledReason: null, consecutiveFailures: 0 }
        : { enabled: false, disabledReason: 'disabled by the tenant' },
    );
  }

  async remove(tenantId: string, id: string): Promise<void> {
    const deleted = isUuid(id) && (await this.webhooks.deleteEndpoint(this.db, tenantId, id));
    if (!deleted) throw new WebhookNotFoundError('endpoint', id);
  }

  /** Newest deliveries first, each with every attempt (status, latency, truncated response). */
  async deliveries(tenantId: string, endpointId: string, limit = 50) {
    await this.get(tenantId, endpointId);
    return this.webhooks.listDeliveries(this.db, endpointId, Math.min(Math.max(limit, 1), 200));
  }

  /**
   * Sends a delivery again with the same webhook-id (receivers de-duplicate on it), as a fresh
   * series of attempts; earlier attempts stay in the log.
   */
  async redeliver(tenantId: string, deliveryId: string) {
    if (!(await this.webhooks.resetDelivery(this.db, tenantId, deliveryId))) {
      throw new WebhookNotFoundError('delivery', deliveryId);
    }
    return this.webhooks.deliveryState(this.db, deliveryId);
  }
}
