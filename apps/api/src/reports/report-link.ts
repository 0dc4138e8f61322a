/**
 * Short-lived report links a browser can open without an API key: an HMAC-SHA256, keyed with
 * REPORT_LINK_SECRET, over the run id and the expiry (unix seconds). Possessing the link is the
 * authorisation, so links expire quickly and the report page is sent with Referrer-Policy: no-referrer.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const REPORT_LINK_TTL_SECONDS = 15 * 60;

export interface SignedReportLink {
  expires: number;
  sig: string;
}

function mac(secret: string, runId: string, expires: number): Buffer {
  return createHmac('sha256', secret).update(`report:${runId.toLowerCase()}:${expires}`).digest();
}

export function signReportLink(
  secret: string,
  runId: string,
  nowSeconds: number,
  ttlSeconds = REPORT_LINK_TTL_SECONDS,
): SignedReportLink {
  const expires = nowSeconds + ttlSeconds;
  return { expires, sig: mac(secret, runId, expires).toString('base64url') };
}

export type LinkVerdict = 'valid' | 'expired' | 'invalid';

/** Checks the signature first (constant time), so an expired forgery is still "invalid". */
export function verifyReportLink(
  secret: string,
  runId: string,
  expires: string | undefined,
  sig: string | undefined,
  nowSeconds: number,
): LinkVerdict {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(secret, runId, Number(expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) >= nowSeconds ? 'valid' : 'expired';
}
