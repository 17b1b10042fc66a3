import type { ServerResponse } from 'node:http';

/** What a browser script may read of an answer besides the CORS-safelisted headers. */
const EXPOSED_HEADERS = [
  'ETag',
  'Link',
  'Location',
  'X-Request-Id',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
].join(', ');

/** How long a browser may reuse a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE_SECONDS = 300;

function addVaryOrigin(res: ServerResponse): void {
  const vary = res.getHeader('Vary');
  if (vary === undefined) res.setHeader('Vary', 'Origin');
  else if (!String(vary).split(',').some((name) => name.trim().toLowerCase() === 'origin')) res.setHeader('Vary', `${String(vary)}, Origin`);
}

/**
 * Lets a browser page on `origin` read this answer (errors included): the origin itself, never `*`,
 * and `Vary: Origin` so that no cache hands the answer to another origin. Only for an origin a
 * publishable key lists.
 */
export function allowBrowserOrigin(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  addVaryOrigin(res);
}

/** A preflight's permission: GET with an Authorization header (a publishable key reads, nothing more). */
export function allowPreflight(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Methods', 'GET');
  res.setHeader('Access-Control-Allow-Headers', 'authorization');
  res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
  addVaryOrigin(res);
}

/** How long a browser may reuse a `/public/v1` preflight's answer: it never changes, so Chromium's cap (2 h). */
const PUBLIC_PREFLIGHT_MAX_AGE_SECONDS = 7_200;

/**
 * The public surface's CORS: any page may read any answer (errors included), since nothing in it
 * depends on who asks: `*`, never credentials, so no `Vary: Origin` either.
 */
export function allowAnyOrigin(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

/** A `/public/v1` preflight's permission, whatever the path: GET and POST with a JSON body. */
export function allowPublicPreflight(res: ServerResponse): void {
  allowAnyOrigin(res);
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
  res.setHeader('Access-Control-Allow-Headers', 'content-type');
  res.setHeader('Access-Control-Max-Age', String(PUBLIC_PREFLIGHT_MAX_AGE_SECONDS));
}
