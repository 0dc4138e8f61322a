/**
 * Webhook events are recorded as WebhookDelivery rows, one per subscribed endpoint, inside the
 * caller's transaction (an outbox): the run's final status and its notifications commit together,
 * and the dispatcher delivers them from PostgreSQL, so neither a crash nor a Redis flush loses one.
 */
import { type Db, WebhookRepository } from '@schedlab/db';
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

const webhooks = new WebhookRepository();

/** Records the event for every subscribed endpoint, in the caller's transaction; returns how many. */
export async function recordWebhookEvent(
  tx: Db,
  event: { tenantId: string; type: WebhookEventType; data: Record<string, unknown> },
  at: Date = new Date(),
): Promise<number> {
  const endpoints = await webhooks.subscribers(tx, event.tenantId, event.type);
  if (endpoints.length === 0) return 0;
  const payload: WebhookPayload = { type: event.type, timestamp: at.toISOString(), data: event.data };
  await webhooks.createDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      id: newMessageId(),
      endpointId: endpoint.id,
      eventType: event.type,
      payload,
      nextAttemptAt: at,
    })),
  );
  return endpoints.length;
}
