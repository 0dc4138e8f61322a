/** What an attempt's outcome means for the delivery and its endpoint, and when to try again. */
import type { AttemptOutcome } from './http-attempt';

export type AttemptVerdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; reason: string; retryAfterMs?: number }
  /** Permanent for this delivery (a 4xx other than 410/429, a redirect). */
  | { kind: 'rejected'; reason: string }
  /** 410 Gone: the receiver asks never to be called again. */
  | { kind: 'gone'; reason: string };

/** Longest wait honoured from a Retry-After header, so one receiver cannot park a delivery for days. */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

export function judgeAttempt(outcome: AttemptOutcome): AttemptVerdict {
  const status = outcome.statusCode;
  if (status === undefined) return { kind: 'retry', reason: outcome.error ?? 'no response' };
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) return { kind: 'gone', reason: 'receiver answered 410 Gone' };
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(outcome.retryAfter);
    return {
      kind: 'retry',
      reason: `receiver answered ${status}`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (status >= 300 && status < 400)
    return { kind: 'rejected', reason: `receiver answered ${status} (redirects are not followed)` };
  return { kind: 'rejected', reason: `receiver answered ${status}` };
}

/**
 * Delay before attempt `attemptCount + 1`: exponential (base · 2^(n-1), at most an hour) with
 * "equal jitter" (half fixed, half random) so many failing deliveries do not retry in lockstep.
 * A Retry-After from the receiver wins when it asks for longer.
 */
export function retryDelayMs(
  attemptCount: number,
  baseMs: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, attemptCount - 1), MAX_RETRY_AFTER_MS);
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.round(Math.max(jittered, retryAfterMs ?? 0));
}
