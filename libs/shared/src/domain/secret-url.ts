/**
 * A URL that may carry secrets, as it may be shown: scheme, host and the first 8 characters of the
 * path. Credentials (`user:pass@`) go, a query becomes `?…`, and a longer path ends in `…`: a calendar's
 * secret address or a webhook's token often lives in the path or the query.
 */
export function maskSecretUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.length > 8 ? `${parsed.pathname.slice(0, 8)}…` : parsed.pathname;
    return `${parsed.protocol}//${parsed.host}${path}${parsed.search ? '?…' : ''}`;
  } catch {
    return '…';
  }
}
