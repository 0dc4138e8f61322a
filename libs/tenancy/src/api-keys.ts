import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

const KEY_PATTERN = /^sl_[A-Za-z0-9_-]{43}$/;
/** How much of a key listings show: "sl_" and 8 characters, enough to tell keys apart. */
const SHOWN_PREFIX_LENGTH = 11;

export interface NewApiKeySecret {
  /** The whole key; shown once, never stored. */
  secret: string;
  prefix: string;
  hash: string;
}

/** Hex sha256. Keys carry 256 random bits, so no salt or slow KDF is needed to resist guessing. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function isWellFormedApiKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

export function generateApiKey(): NewApiKeySecret {
  const secret = `sl_${randomBytes(32).toString('base64url')}`;
  return { secret, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: hashApiKey(secret) };
}
