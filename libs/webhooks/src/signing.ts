/** Standard Webhooks signing through the reference `standardwebhooks` library (no hand-rolled HMAC). */
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes, as the specification describes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** A message id (`webhook-id`), stable across retries of one event to one endpoint. */
export function newMessageId(): string {
  return `msg_${randomUUID().replace(/-/g, '')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three Standard Webhooks headers for one attempt (the timestamp is the attempt's). */
export function signWebhook(
  secret: string,
  messageId: string,
  body: string,
  at: Date = new Date(),
): SignedHeaders {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(messageId, timestamp, body),
  };
}
