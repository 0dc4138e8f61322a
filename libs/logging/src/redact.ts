import type { DestinationStream } from 'pino';

/** Header paths pino blanks out in every request/response it logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'res.headers["webhook-signature"]',
];

export const REDACTED = '[REDACTED]';

/** Matches a secret wherever it appears in a log line (messages, errors, nested objects). */
const PATTERNS: [RegExp, string][] = [
  // Authorization header values, whatever the scheme.
  [/\b(Bearer|Basic)\s+[^\s"'\\,;]+/gi, `$1 ${REDACTED}`],
  // Tenant API keys: sl_ + 43 base64url characters (any run of 16+ is treated as one).
  [/\bsl_[A-Za-z0-9_-]{16,}/g, `sl_${REDACTED}`],
  // Standard Webhooks signing secrets.
  [/\bwhsec_[A-Za-z0-9+/=_-]{8,}/g, `whsec_${REDACTED}`],
  // Passwords in URLs: scheme://user:password@host (database and Redis URLs).
  [/\b([a-z][a-z0-9+.-]*:\/\/[^:/?#\s"'@]*):[^@/?#\s"']+@/gi, `$1:${REDACTED}@`],
  // Cookies: the values of cookie and set-cookie headers wherever they were logged verbatim.
  [/("(?:cookie|set-cookie)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi, `$1"${REDACTED}"`],
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes secrets from one serialized log line: the patterns above, plus the literal values of
 * `secrets` (the operator token, the database URL's password), however they got into the line.
 */
export function redactSecrets(line: string, secrets: readonly string[] = []): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= 6) out = out.replace(new RegExp(escapeRegExp(secret), 'g'), REDACTED);
    // A JSON-escaped copy of the secret looks different; cover the common case of quotes and slashes.
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && escaped.length >= 6) out = out.split(escaped).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** The password of a URL such as DATABASE_URL or REDIS_URL, if it has one. */
export function urlPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A pino destination that scrubs every line before it reaches `out` (stdout): the last line of
 * defence for secrets that arrive in messages, error texts or objects no redact path names.
 */
export function redactingDestination(
  secrets: readonly string[],
  out: { write(chunk: string): unknown } = process.stdout,
): DestinationStream {
  const known = secrets.filter((s) => s.length > 0);
  return { write: (line: string) => void out.write(redactSecrets(line, known)) };
}
