import { createHash } from 'node:crypto';

// HTTP semantics (ETag, If-None-Match, Link; docs/contract/http.md) as plain functions (no framework): the app's adapter calls them
// on every answer.

/** The strong entity tag of a JSON body as sent (quotes included). */
export function entityTagOf(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/** The entity tags of an If-Match / If-None-Match value; `*` alone is 'any'. Malformed members match nothing. */
export function parseEntityTags(value: string | undefined): { any: boolean; strong: string[]; weak: string[] } | undefined {
  if (value === undefined) return undefined;
  const result = { any: false, strong: [] as string[], weak: [] as string[] };
  if (value.trim() === '*') return { ...result, any: true };
  // An entity-tag is an optional W/ and a quoted string without DQUOTE (RFC 9110 §8.8.3).
  for (const match of value.matchAll(/(W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g)) {
    (match[1] ? result.weak : result.strong).push(match[2]!);
  }
  return result;
}

/** Whether If-None-Match names this tag (weak comparison, RFC 9110 §13.1.2). */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  const tags = parseEntityTags(header);
  return tags !== undefined && (tags.any || tags.strong.includes(tag) || tags.weak.includes(tag));
}

/**
 * The RFC 8288 `Link` value of a page answer (`{ data: [...], meta: PageMeta }`) to the request at
 * `url` (path and query as received): `first`, `prev` when offset > 0 and `next` when more follow,
 * each keeping every other query parameter as sent. Undefined for anything that is not a page.
 */
export function paginationLinks(url: string, body: unknown): string | undefined {
  const meta = (body as { meta?: { limit?: unknown; offset?: unknown; hasMore?: unknown; next_cursor?: unknown } } | null)?.meta;
  const data = (body as { data?: unknown } | null)?.data;
  if (!meta || !Array.isArray(data) || typeof meta.hasMore !== 'boolean') return undefined;
  const queryAt = url.indexOf('?');
  // Only what a URI-reference may hold: anything else in the path as received is percent-encoded.
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(/[^\x21-\x7e]|[<>"\\^`{|}]/g, (c) =>
    encodeURIComponent(c),
  );
  const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
  if ('next_cursor' in meta) return cursorLinks(path, query, meta.next_cursor);
  if (typeof meta.limit !== 'number' || typeof meta.offset !== 'number') return undefined;
  const { limit, offset } = meta;
  const link = (at: number, rel: string): string => {
    query.set('limit', String(limit));
    query.set('offset', String(at));
    return `<${path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [link(0, 'first')];
  if (offset > 0) links.push(link(Math.max(0, offset - limit), 'prev'));
  if (meta.hasMore) links.push(link(offset + data.length, 'next'));
  return links.join(', ');
}


/** A cursor feed (`meta.next_cursor`): `first` without a cursor, `next` from the one given (to keep following). */
function cursorLinks(path: string, query: URLSearchParams, cursor: unknown): string {
  query.delete('after');
  const links = [`<${path}${query.size > 0 ? `?${query.toString()}` : ''}>; rel="first"`];
  if (typeof cursor === 'string') {
    query.set('after', cursor);
    links.push(`<${path}?${query.toString()}>; rel="next"`);
  }
  return links.join(', ');
}

/** The draft-ietf-httpapi-ratelimit-headers fields of a rate-limit decision, beside the older three. */
export function rateLimitHeaders(
  policy: string,
  decision: { limit: number; remaining: number; resetSeconds: number },
  windowSeconds: number,
): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': `"${policy}";q=${decision.limit};w=${windowSeconds}`,
    RateLimit: `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
