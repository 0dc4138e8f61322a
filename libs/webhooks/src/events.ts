/**
 * Webhook events are recorded as WebhookDelivery rows, one per subscribed endpoint, inside the
 * caller's transaction (an outbox): the run's final status and its notifications commit together,
 * and the dispatcher delivers them from PostgreSQL, so neither a crash nor a Redis flush loses one.
 */
import type { Prisma } from '@schedlab/db';
import { newMessageId } from './signing';

export const WEBHOOK_EVENT_TYPES = [
  'simulation.succeeded',
  'simulation.failed',
  'simulation.cancelled',
  'sweep.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The Standard Webhooks payload shape: {type, timestamp, data}. */
export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

export async function recordWebhookEvent(
  tx: Prisma.TransactionClient,
  event: { tenantId: string; type: WebhookEventType; data: Record<string, unknown> },
  at: Date = new Date(),
): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { tenantId: event.tenantId, enabled: true, eventTypes: { has: event.type } },
    select: { id: true },
  });
  if (endpoints.length === 0) return 0;
  const payload: WebhookPayload = { type: event.type, timestamp: at.toISOString(), data: event.data };
  await tx.webhookDelivery.createMany({
    data: endpoints.map((endpoint) => ({
      id: newMessageId(),
      endpointId: endpoint.id,
      eventType: event.type,
      payload: payload as unknown as Prisma.InputJsonValue,
      nextAttemptAt: at,
    })),
  });
  return endpoints.length;
}
