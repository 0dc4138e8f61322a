/**
 * One webhook POST. Node's http client never follows redirects (a 3xx is just a response), the
 * connection goes to the address the SSRF guard approved (the `lookup` hook pins it, so TLS still
 * verifies the certificate against the URL's host name), and the whole attempt has a deadline.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './ssrf-guard';

/** Receivers' answers are logged, not stored whole. */
export const RESPONSE_SNIPPET_BYTES = 1024;

export interface AttemptOutcome {
  /** Absent when no response arrived (network error, timeout). */
  statusCode?: number;
  latencyMs: number;
  responseSnippet?: string;
  /** Why no usable response arrived. */
  error?: string;
  /** The Retry-After header, if the receiver sent one. */
  retryAfter?: string;
}

export interface AttemptRequest {
  url: URL;
  target: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}

export function postWebhook(request: AttemptRequest): Promise<AttemptOutcome> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const req = client.request(
      request.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Schedlab-Webhooks/1',
          'content-length': Buffer.byteLength(request.body).toString(),
          ...request.headers,
        },
        lookup: pinnedLookup(request.target),
        agent: false, // no pooled socket may skip the pinned lookup
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_SNIPPET_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_SNIPPET_BYTES) res.destroy(); // enough to log; drop the rest
        });
        const done = () => {
          const retryAfter = res.headers['retry-after'];
          finish({
            statusCode: res.statusCode,
            responseSnippet: Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'),
            ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
          });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const deadline = setTimeout(() => {
      finish({ error: `timed out after ${request.timeoutMs} ms` });
      req.destroy();
    }, request.timeoutMs);
    req.on('error', (error) => finish({ error: error.message }));
    req.end(request.body);
  });
}
