/**
 * A request target as the logs may show it: the secret some URLs carry replaced by `[redacted]`. A
 * calendar feed's address is its token (`/calendar/{token}.ics`), a public route takes its token in
 * the segment after the resource (`/public/v1/bookings/{token}/cancel`), and `key` and `token` query
 * parameters carry keys. Matched as the router matches (any case, absolute-form targets too), so that
 * nothing the router would serve from a secret is logged with it.
 */
export function redactedUrl(url: string): string {
  const parts = /^((?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*)?)([^?#]*)(.*)$/is.exec(url);
  if (!parts) return url;
  const [, origin = '', rawPath = '', rest = ''] = parts;
  const path = rawPath
    .replace(/^(\/calendar\/)[^/]+?(\.ics)?$/i, (_, head: string, ics?: string) => `${head}[redacted]${ics ?? ''}`)
    .replace(/^(\/public\/[^/]+\/[^/]+\/)[^/]+/i, '$1[redacted]');
  const query = rest.replace(/([?&](?:key|token)=)[^&#]*/gi, '$1[redacted]');
  return origin + path + query;
}
