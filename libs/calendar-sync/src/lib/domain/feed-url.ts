/**
 * Feed URLs are secrets (Google's "secret address in iCal format"): show scheme, host and the start
 * of the path only.
 */
export function maskFeedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.length > 8 ? `${parsed.pathname.slice(0, 8)}…` : parsed.pathname;
    return `${parsed.protocol}//${parsed.host}${path}${parsed.search ? '?…' : ''}`;
  } catch {
    return '…';
  }
}
