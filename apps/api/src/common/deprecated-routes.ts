import type { IncomingMessage, ServerResponse } from 'node:http';

/** REST's old word for a run. */
const DEPRECATED_PREFIX = '/v1/simulations';
const CURRENT_PREFIX = '/v1/runs';
/** When the alias was deprecated (RFC 9745 Deprecation header: a structured-field date). */
const DEPRECATED_SINCE = '@1795564800'; // 2026-11-25

/**
 * Serves `/v1/simulations…` as `/v1/runs…` (one word for a run across REST, GraphQL and code),
 * so clients written against the old path keep working while the answer tells them to move:
 * `Deprecation` and a `Link` to the successor. It rewrites the URL before routing, so there is
 * one set of routes (and one metrics route label) for both spellings.
 */
export function deprecatedSimulationsAlias() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const url = req.url ?? '';
    const rest = url.slice(DEPRECATED_PREFIX.length);
    if (url.startsWith(DEPRECATED_PREFIX) && (rest === '' || rest[0] === '/' || rest[0] === '?')) {
      req.url = CURRENT_PREFIX + rest;
      res.setHeader('Deprecation', DEPRECATED_SINCE);
      res.setHeader('Link', `<${CURRENT_PREFIX}>; rel="successor-version"`);
    }
    next();
  };
}
