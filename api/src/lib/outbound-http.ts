import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';

/**
 * The one way the API calls a learning platform or Brightspace (issue #20 point 4): JWKS, OAuth
 * tokens, AGS, dynamic registration, whoami. Those URLs come from platforms and their
 * administrators, so each call is held to rules no URL can talk its way past:
 *
 * - https only; plain http only to a loopback host while the portal itself runs on http
 *   loopback (a developer's machine with the `lms/` stand-in);
 * - every address the host name resolves to must be public unicast: private, link-local (cloud
 *   metadata 169.254.169.254), CGNAT, unique-local (fd00:ec2::254), multicast, unspecified,
 *   reserved, NAT64/6to4/Teredo forms and loopback (outside development) are refused. The check
 *   runs inside the socket's own lookup, on the addresses it then connects to, so a DNS answer
 *   cannot change between check and connect (no rebinding window);
 * - optionally the host must be one of a list (AGS URLs: the registered platform's hosts);
 * - no redirects, 5 s for the whole exchange, 256 kB of answer at most.
 *
 * Failures are `OutboundError`s with a code; nothing of the answer's body is ever put in one,
 * since such messages end up in the outbox, the audit log and the logs.
 */

export const OUTBOUND_TIMEOUT_MS = 5_000;
export const OUTBOUND_MAX_BYTES = 256 * 1024;

export const OUTBOUND_ERROR_CODES = [
  /** Not https (or http to loopback in development), or with credentials, or no URL at all. */
  'OUTBOUND_BLOCKED_URL',
  /** The URL's host is not one the call may go to (an AGS URL off the platform's hosts). */
  'OUTBOUND_BLOCKED_HOST',
  /** The host is, or resolves to, an address of a refused range. */
  'OUTBOUND_BLOCKED_ADDRESS',
  'REDIRECT_REFUSED',
  'TIMEOUT',
  'TOO_LARGE',
  /** DNS failure, connection refused or reset, TLS failure. */
  'NETWORK',
] as const;
export type OutboundErrorCode = (typeof OUTBOUND_ERROR_CODES)[number];

export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    /** The HTTP status when the platform answered (a redirect); else null. */
    readonly status: number | null = null,
    /** What was refused (host, address); never anything the platform sent in a body. */
    readonly detail?: string,
  ) {
    super(detail ? `${code} (${detail})` : code);
    this.name = 'OutboundError';
  }
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1 (a URL's hostname keeps IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

export interface OutboundPolicy {
  /** Loopback addresses and plain http to loopback hosts: a development portal only. */
  development: boolean;
}

/**
 * Development is a portal served over http on a loopback host (the default
 * `http://localhost:8080`): only there do the platform stand-ins run on this machine over http.
 * A portal on https, or on any other host, never calls loopback or plain http.
 */
export function outboundPolicyFor(portalUrl: string): OutboundPolicy {
  const url = new URL(portalUrl);
  return { development: url.protocol === 'http:' && isLoopbackHost(url.hostname) };
}

/**
 * Why an address may not be called, or null when it may. Only public unicast passes (an
 * allow-list of one range: whatever ipaddr.js names otherwise is internal or special).
 */
export function refusedAddress(address: string, policy: OutboundPolicy): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // `process` turns ::ffff:10.0.0.1 into 10.0.0.1, so a mapped address meets the IPv4 rules.
    parsed = ipaddr.process(address);
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.development) return null;
  return range;
}

/** The checked URL, or the reason it may not be called. */
export function checkOutboundUrl(
  raw: string | URL,
  policy: OutboundPolicy,
  allowedHosts?: readonly string[],
): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('OUTBOUND_BLOCKED_URL', null, 'not a URL');
  }
  if (url.username || url.password) {
    throw new OutboundError('OUTBOUND_BLOCKED_URL', null, 'credentials in the URL');
  }
  const httpAllowed = url.protocol === 'http:' && policy.development && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !httpAllowed) {
    throw new OutboundError('OUTBOUND_BLOCKED_URL', null, `${url.protocol} to ${url.hostname}`);
  }
  if (allowedHosts && !allowedHosts.includes(url.hostname.toLowerCase())) {
    throw new OutboundError('OUTBOUND_BLOCKED_HOST', null, url.hostname);
  }
  // A literal address is connected to without any lookup: checked here instead.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal)) {
    const why = refusedAddress(literal, policy);
    if (why) throw new OutboundError('OUTBOUND_BLOCKED_ADDRESS', null, `${literal}: ${why}`);
  }
  return url;
}

/** The host names of these URLs (lower case), for `allowedHosts`; unparsable ones are skipped. */
export function hostsOf(urls: readonly string[]): string[] {
  const hosts = new Set<string>();
  for (const raw of urls) {
    try {
      hosts.add(new URL(raw).hostname.toLowerCase());
    } catch {
      // A registration URL that does not parse allows nothing.
    }
  }
  return [...hosts];
}

/**
 * The socket's lookup: resolves every address, refuses the connection when any of them is in a
 * refused range, and hands the socket exactly the addresses it checked.
 */
function guardedLookup(resolve: LookupFunction, policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list: LookupAddress[] = Array.isArray(addresses)
        ? addresses
        : [{ address: addresses, family: isIP(addresses) }];
      const refused = list
        .map((a) => ({ address: a.address, why: refusedAddress(a.address, policy) }))
        .find((a) => a.why !== null);
      if (refused || list.length === 0) {
        const detail = refused ? `${hostname} → ${refused.address}: ${refused.why}` : hostname;
        return callback(new OutboundError('OUTBOUND_BLOCKED_ADDRESS', null, detail), '', 4);
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export interface OutboundAnswer {
  status: number;
  ok: boolean;
  headers: Headers;
  body: Buffer;
  /** The body parsed as JSON; undefined when it is none. */
  json(): unknown;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** When given, the URL's host name must be one of these (lower case). */
  allowedHosts?: readonly string[];
  /** Aborts the call early (the timeout applies in any case). */
  signal?: AbortSignal;
}

export interface OutboundClientOptions {
  policy: OutboundPolicy;
  /** The resolver (tests give one that answers what they need); node's `dns.lookup` otherwise. */
  lookup?: LookupFunction;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface OutboundClient {
  readonly policy: OutboundPolicy;
  request(url: string | URL, init?: OutboundRequest): Promise<OutboundAnswer>;
  /** The same client as a fetch for jose's `customFetch` (the remote JWKS). */
  fetch(url: string, init: { headers?: Headers | Record<string, string>; signal?: AbortSignal }): Promise<Response>;
  close(): Promise<void>;
}

/** The OutboundError somewhere in `error`'s cause chain (undici wraps socket errors). */
function outboundErrorIn(error: unknown): OutboundError | null {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof OutboundError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function networkReason(error: unknown): string {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return 'failed';
}

export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  const { policy } = options;
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? OUTBOUND_MAX_BYTES;
  const agent = new Agent({
    connect: { lookup: guardedLookup(options.lookup ?? (dnsLookup as LookupFunction), policy) },
  });

  async function request(raw: string | URL, init: OutboundRequest = {}): Promise<OutboundAnswer> {
    const url = checkOutboundUrl(raw, policy, init.allowedHosts);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const failed = (error: unknown): never => {
      const known = outboundErrorIn(error);
      if (known) throw known;
      if (timeout.aborted) throw new OutboundError('TIMEOUT', null, url.host);
      throw new OutboundError('NETWORK', null, `${url.host}: ${networkReason(error)}`);
    };
    let res: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      res = await undiciFetch(url, {
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
        signal,
        dispatcher: agent,
      } satisfies UndiciRequestInit);
    } catch (error) {
      return failed(error);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      throw new OutboundError('REDIRECT_REFUSED', res.status, url.host);
    }
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new OutboundError('TOO_LARGE', res.status, url.host);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      if (res.body) {
        for await (const chunk of res.body) {
          size += chunk.byteLength;
          if (size > maxBytes) {
            await res.body.cancel().catch(() => undefined);
            throw new OutboundError('TOO_LARGE', res.status, url.host);
          }
          chunks.push(chunk);
        }
      }
    } catch (error) {
      return failed(error);
    }
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of res.headers) headers.append(name, value);
    return {
      status: res.status,
      ok: res.ok,
      headers,
      body,
      json() {
        try {
          return body.length === 0 ? undefined : (JSON.parse(body.toString('utf8')) as unknown);
        } catch {
          return undefined;
        }
      },
    };
  }

  return {
    policy,
    request,
    async fetch(url, init) {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const answer = await request(url, { headers, signal: init.signal });
      return new Response(answer.status === 204 ? null : new Uint8Array(answer.body), {
        status: answer.status,
        headers: answer.headers,
      });
    },
    close: () => agent.close(),
  };
}
