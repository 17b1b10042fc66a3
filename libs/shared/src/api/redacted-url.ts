/** An absolute-form request target's scheme and authority (`GET http://host/path`), which Express routes like `/path`. */
const ORIGIN_FORM = '(?:[a-z][a-z0-9+.-]*://[^/?#]*)?';
/** The token after any `/public/v1/<collection>/` (preview links, booking self-service), and a calendar feed's. */
const SECRET_SEGMENTS = [new RegExp(`^(${ORIGIN_FORM}/public/v1/[^/?#]+/)[^/?#]+`, 'i'), new RegExp(`^(${ORIGIN_FORM}/calendar/)[^/?#]+?(?=\\.ics(?:[/?#]|$)|[/?#]|$)`, 'i')];

/** Whether a query parameter's name, as the query parser decodes it, is `key` or `token`. */
function namesSecret(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // Not decodable: the parser keeps it as sent, and so do we.
  }
  return /^(?:key|token)(?:\[|$)/i.test(name.trim());
}

/**
 * A request target as the logs may show it: the secret some URLs carry replaced by `[redacted]`. A
 * calendar feed's address is its token (`/calendar/{token}.ics`), a public route takes its token in
 * the segment after the resource (`/public/v1/bookings/{token}/cancel`), and `key` and `token` query
 * parameters carry keys. Matched as the router and the query parser match (any case, absolute-form
 * targets, percent-encoded names), so that nothing the router would serve from a secret is logged with it.
 */
export function redactedUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const pattern of SECRET_SEGMENTS) path = path.replace(pattern, '$1[redacted]');
  const query = queryAt === -1 ? '' : url.slice(queryAt).replace(/([?&#])([^=&#]*)=([^&#]*)/g, (pair, separator: string, name: string) => (namesSecret(name) ? `${separator}${name}=[redacted]` : pair));
  return path + query;
}
