export {
  type AddressPolicy,
  type ResolvedAddress,
  type Resolver,
  addressRange,
  resolveWebhookTarget,
  systemResolver,
  UnsafeWebhookUrlError,
} from './ssrf-guard';
export { generateWebhookSecret, newMessageId, signWebhook, type SignedHeaders } from './signing';
export { postWebhook, RESPONSE_SNIPPET_BYTES, type AttemptOutcome } from './http-attempt';
export { judgeAttempt, parseRetryAfter, retryDelayMs, type AttemptVerdict } from './retry-policy';
export {
  recordWebhookEvent,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  type WebhookPayload,
} from './events';
export { WebhookDispatcher, type DispatcherSettings, type DispatcherLogger } from './dispatcher';
export {
  WebhookEndpoints,
  WebhookNotFoundError,
  registerEndpointSchema,
  type RegisterEndpointInput,
  type EndpointView,
} from './endpoints';
export type { DbClient } from './db-client';
