import { UsageError } from '../input/errors';

/** What the service answers to a snapshot import (POST /v1/snapshots). */
export interface UploadedSnapshot {
  id: string;
  name: string;
  duplicate: boolean;
  [field: string]: unknown;
}

/** The import endpoint for a service URL given as its base, its /v1 or the endpoint itself. */
export function snapshotsEndpoint(serviceUrl: string): URL {
  let url: URL;
  try {
    url = new URL(serviceUrl);
  } catch {
    throw new UsageError(`--upload ${serviceUrl}: not a URL (e.g. http://localhost:3000)`);
  }
  const base = url.pathname.replace(/\/+$/, '');
  url.pathname = base.endsWith('/v1/snapshots')
    ? base
    : base.endsWith('/v1')
      ? `${base}/snapshots`
      : `${base}/v1/snapshots`;
  return url;
}

/**
 * Posts a dump to a Schedlab service as a snapshot, with the tenant's API key as a bearer token.
 * Errors name the endpoint and the HTTP status and the service's message, never the key.
 */
export async function uploadSnapshot(
  serviceUrl: string,
  token: string,
  dumpJson: string,
  name: string,
  labels?: string,
): Promise<UploadedSnapshot> {
  const url = snapshotsEndpoint(serviceUrl);
  url.searchParams.set('name', name);
  if (labels) url.searchParams.set('labels', labels);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: dumpJson,
    });
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause;
    const reason =
      cause?.code === 'ECONNREFUSED' ? 'connection refused' : (cause?.code ?? (error as Error).message);
    throw new UsageError(`upload to ${url.origin}${url.pathname}: cannot reach the service (${reason})`);
  }
  const text = await response.text();
  let body: { error?: { code?: string; message?: string } } & Partial<UploadedSnapshot> = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // A proxy's HTML error page, say: the status alone tells enough.
  }
  if (!response.ok) {
    const detail = body.error?.message ? `: ${body.error.message}` : '';
    throw new UsageError(`upload to ${url.origin}${url.pathname}: HTTP ${response.status}${detail}`);
  }
  return body as UploadedSnapshot;
}
