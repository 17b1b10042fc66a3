/**
 * The public surface: routes that take no key (what opens them, a token or a publishable key, is in
 * the address), open to pages of any origin and limited per client address, all routes together.
 */
export const PUBLIC_API_PREFIX = '/public/v1';

/**
 * Whether a request path lies under `/public/v1` as Express routes it, that is ignoring case
 * (`/PUBLIC/V1/…` reaches the same handlers), `/public/v1` itself included. Give it the parsed
 * path (Express's `req.path`), so an absolute-form target (`GET http://host/public/v1/…`) counts too.
 */
export function isPublicApiPath(path: string): boolean {
  const length = PUBLIC_API_PREFIX.length;
  if (path.length < length || path.slice(0, length).toLowerCase() !== PUBLIC_API_PREFIX) return false;
  return path.length === length || path.charAt(length) === '/';
}
