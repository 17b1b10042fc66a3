import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface SafeFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  allowPrivateHosts: boolean;
}

export const FEED_FETCH_DEFAULTS: Omit<SafeFetchOptions, 'allowPrivateHosts'> = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 3,
};

/** Why a feed could not be fetched; the message is safe to show (no URL secrets). */
export class FetchFailedError extends Error {
  /** `timedOut`: the far end gave no answer within the time allowed (it may hang, not just refuse). */
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** Loopback, private, link-local, unique-local, CGNAT, multicast, reserved: anything but public unicast. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      parsed = v6.toIPv4Address();
    } else if (v6.parts.slice(0, 6).every((part) => part === 0)) {
      // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): some stacks still route it to the IPv4
      // address, loopback included. No public service lives there.
      return false;
    }
  }
  // Only plain public unicast: NAT64 (64:ff9b::/96), 6to4, Teredo and the rest embed IPv4 addresses
  // that may be private, and ipaddr.js gives them ranges of their own.
  return parsed.range() === 'unicast';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** DNS lookup that refuses non-public answers, so a public name cannot point the fetch inward. */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refused = !allowPrivate && list.some((a) => !isPublicAddress(a.address));
      if (refused || list.length === 0) {
        return callback(Object.assign(new Error('the feed host resolves to a private address'), { code: 'EPRIVATE' }), []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

interface OutgoingRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** What the messages call the far end ("the feed", "the endpoint"). */
  noun: string;
}

const FEED_REQUEST: OutgoingRequest = {
  method: 'GET',
  headers: { Accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1', 'User-Agent': 'Almanac-Calendar-Sync/1.0' },
  noun: 'the feed',
};

function once(url: URL, options: SafeFetchOptions, signal: AbortSignal, outgoing: OutgoingRequest = FEED_REQUEST): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !options.allowPrivateHosts && !isPublicAddress(host)) {
    return Promise.reject(new FetchFailedError(`${outgoing.noun} address is private or loopback`));
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: outgoing.method, signal, lookup: guardedLookup(options.allowPrivateHosts) as never, headers: outgoing.headers },
      resolve,
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPRIVATE') reject(new FetchFailedError(`${outgoing.noun} host resolves to a private address`));
      else if (error.name === 'AbortError') reject(new FetchFailedError(`${outgoing.noun} did not answer within ${Math.round(options.timeoutMs / 1000)} seconds`, true));
      else reject(new FetchFailedError(`${outgoing.noun} could not be reached (${error.code ?? 'network error'})`));
    });
    req.end(outgoing.body);
  });
}

function readBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new FetchFailedError(`the feed is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`));
        response.destroy();
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', (error: Error) =>
      reject(error instanceof FetchFailedError ? error : new FetchFailedError('the feed connection failed while reading')),
    );
    response.on('aborted', () => reject(new FetchFailedError('the feed connection was cut')));
  });
}

/**
 * GETs a feed over http(s) with a total timeout, a size cap and a redirect cap, refusing private
 * and loopback destinations (checked on every hop and at DNS resolution) unless allowed.
 */
export async function safeFetchText(rawUrl: string, options: SafeFetchOptions): Promise<string> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = new URL(rawUrl);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchFailedError('the feed URL must be http(s)');
    const response = await once(url, options, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (hop >= options.maxRedirects) throw new FetchFailedError(`the feed redirected more than ${options.maxRedirects} times`);
      try {
        url = new URL(response.headers.location, url);
      } catch {
        // The error would quote the location and the (secret) feed URL: say only what happened.
        throw new FetchFailedError('the feed redirected to an invalid address');
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FetchFailedError(`the feed answered HTTP ${status}`);
    }
    try {
      return await readBody(response, options.maxBytes);
    } catch (error) {
      if (signal.aborted) throw new FetchFailedError('the feed did not answer within 10 seconds', true);
      throw error;
    }
  }
}

/** What a webhook endpoint answered: its status and the start of its body. */
export interface PostOutcome {
  status: number;
  /** At most `maxBytes` of the body, as text. */
  body: string;
}

/**
 * POSTs a body once, with the same guards as `safeFetchText` (private and loopback destinations
 * refused on the address and at DNS resolution unless allowed, a total timeout) and no redirects:
 * a 3xx answer is returned as it is. Reads at most `maxBytes` of the answer. Network failures and
 * timeouts throw FetchFailedError.
 */
export async function safePost(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: Omit<SafeFetchOptions, 'maxRedirects'>,
): Promise<PostOutcome> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new FetchFailedError('the endpoint URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchFailedError('the endpoint URL must be http(s)');
  const signal = AbortSignal.timeout(options.timeoutMs);
  const outgoing: OutgoingRequest = {
    method: 'POST',
    headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    body,
    noun: 'the endpoint',
  };
  const response = await once(url, { ...options, maxRedirects: 0 }, signal, outgoing);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      response.on('data', (chunk: Buffer) => {
        if (size < options.maxBytes) chunks.push(chunk.subarray(0, options.maxBytes - size));
        size += chunk.length;
        if (size >= options.maxBytes) {
          response.destroy();
          resolve();
        }
      });
      response.on('end', resolve);
      response.on('error', reject);
      response.on('aborted', resolve);
    });
  } catch {
    // The status is what counts; a body cut short is kept as far as it came.
  }
  return { status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') };
}
