/**
 * Server-side request forgery guard for webhook URLs: a tenant-supplied URL must not make the
 * worker talk to loopback, private, link-local (cloud metadata), CGNAT, unique-local IPv6 or any
 * other special-purpose address. Every address a name resolves to is checked, at registration and
 * again right before each delivery, and the delivery connects to the checked address itself so a
 * DNS answer that changes in between (rebinding) cannot redirect it.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Host names or IP literals (lower-case) trusted whatever they resolve to. */
  allowHosts: readonly string[];
  /** Permit loopback addresses (tests, a receiver on the same host). */
  allowLoopback: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Raised for a URL that is malformed or points where webhooks may not go; the message says why. */
export class UnsafeWebhookUrlError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Webhook URL ${url} is not allowed: ${reason}`);
    this.name = 'UnsafeWebhookUrlError';
  }
}

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/**
 * ipaddr.js names the special-purpose range an address falls in ("private", "linkLocal",
 * "carrierGradeNat", "uniqueLocal", "loopback", "reserved", …); only plain "unicast" is public.
 * `process` first turns IPv4-mapped IPv6 (::ffff:10.0.0.1) back into IPv4 so it is judged as such.
 */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  const range = addressRange(address);
  if (range === 'unicast') return true;
  if (range === 'loopback' && policy.allowLoopback) return true;
  return policy.allowHosts.includes(ipaddr.process(address).toString());
}

/** Parses and checks the URL's shape (scheme, no credentials); returns the bare host name. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeWebhookUrlError(raw, 'not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeWebhookUrlError(
      raw,
      `scheme must be http or https (got ${url.protocol.replace(':', '')})`,
    );
  }
  if (url.username || url.password) {
    throw new UnsafeWebhookUrlError(
      raw,
      'credentials in the URL are not accepted; authenticate with the signature',
    );
  }
  return url;
}

export function hostnameOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * Resolves the URL's host and checks every address it resolves to. Returns the address to connect
 * to. An explicitly allowed host name skips the range check (on-prem receivers).
 */
export async function resolveWebhookTarget(
  raw: string,
  policy: AddressPolicy,
  resolver: Resolver = systemResolver,
): Promise<{ url: URL; target: ResolvedAddress }> {
  const url = parseWebhookUrl(raw);
  const host = hostnameOf(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolver(host);
    } catch (error) {
      throw new UnsafeWebhookUrlError(raw, `host ${host} does not resolve (${(error as Error).message})`);
    }
    if (addresses.length === 0) throw new UnsafeWebhookUrlError(raw, `host ${host} does not resolve`);
  }
  if (!policy.allowHosts.includes(host)) {
    for (const { address } of addresses) {
      if (!isAllowedAddress(address, policy)) {
        throw new UnsafeWebhookUrlError(
          raw,
          `${host === address ? 'address' : `host ${host} resolves to`} ${address}, a ${addressRange(address)} address`,
        );
      }
    }
  }
  return { url, target: addresses[0]! };
}
