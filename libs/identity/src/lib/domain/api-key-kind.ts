import { FieldError, ValidationFailedError } from '@almanac/shared/domain';
import { normalizeScopes, Scope } from './scopes';

/**
 * A secret key is for servers: every scope it was given, never any CORS header. A publishable key is
 * meant to sit in a static site or a browser app, where anyone can read it: it only reads what is
 * already public (published posts and events), and browsers on its listed origins may use it.
 */
export const API_KEY_KINDS = ['secret', 'publishable'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** What a publishable key may do, and nothing else. */
export const PUBLISHABLE_SCOPES: readonly Scope[] = ['posts:read', 'events:read'];

export const MAX_ALLOWED_ORIGINS = 50;
export const MAX_ORIGIN_LENGTH = 300;
export const MAX_SITE_URL_LENGTH = 2000;

/** What a key is made of besides its name: its kind, scopes, and for a publishable key its origins and site. */
export interface ApiKeyTerms {
  readonly kind: ApiKeyKind;
  readonly scopes: Scope[];
  readonly allowedOrigins: string[];
  readonly siteUrl: string | null;
}

export interface ApiKeyTermsInput {
  readonly kind?: ApiKeyKind;
  readonly scopes?: readonly string[];
  readonly allowedOrigins?: readonly string[] | null;
  readonly siteUrl?: string | null;
}

/**
 * An origin as browsers send it in `Origin`: `scheme://host[:port]`, http or https, nothing after
 * it. Returned in the form browsers serialise (lowercase scheme and host, no default port), so that
 * the check on each request is a plain comparison; null when it is not one.
 */
export function canonicalOrigin(value: string): string | null {
  if (value.length > MAX_ORIGIN_LENGTH || !/^https?:\/\/[^/?#@\s]+$/i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.origin === 'null' ? null : url.origin;
}

/** An absolute http(s) URL, at most 2,000 characters. */
function isSiteUrl(value: string): boolean {
  if (value.length > MAX_SITE_URL_LENGTH || !/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * The terms of a new key. A secret key (the default) takes any scopes (none: all of them) and no
 * origins or site URL. A publishable key's scopes are exactly `posts:read events:read`, given or
 * not (absent or empty: those two); anything else is refused rather than narrowed, so the caller
 * never believes a key can do what it cannot. Every failing field is listed.
 */
export function resolveApiKeyTerms(input: ApiKeyTermsInput): ApiKeyTerms {
  const kind = input.kind ?? 'secret';
  const errors: FieldError[] = [];
  const origins = input.allowedOrigins ?? [];
  if (kind === 'secret') {
    if (origins.length > 0) errors.push({ field: 'allowed_origins', message: 'only a publishable key has allowed origins' });
    if (input.siteUrl != null) errors.push({ field: 'site_url', message: 'only a publishable key has a site URL' });
    if (errors.length > 0) throw new ValidationFailedError(errors);
    return { kind, scopes: normalizeScopes(input.scopes), allowedOrigins: [], siteUrl: null };
  }
  const asked = new Set(input.scopes ?? []);
  if (asked.size > 0 && (asked.size !== PUBLISHABLE_SCOPES.length || !PUBLISHABLE_SCOPES.every((scope) => asked.has(scope)))) {
    errors.push({ field: 'scopes', message: `a publishable key has exactly the scopes ${PUBLISHABLE_SCOPES.join(' ')}` });
  }
  if (origins.length > MAX_ALLOWED_ORIGINS) errors.push({ field: 'allowed_origins', message: `at most ${MAX_ALLOWED_ORIGINS} origins` });
  const allowedOrigins: string[] = [];
  origins.slice(0, MAX_ALLOWED_ORIGINS).forEach((origin, index) => {
    const canonical = typeof origin === 'string' ? canonicalOrigin(origin) : null;
    if (canonical === null) errors.push({ field: `allowed_origins[${index}]`, message: 'must be an origin: http(s)://host[:port], nothing after it' });
    else if (!allowedOrigins.includes(canonical)) allowedOrigins.push(canonical);
  });
  if (input.siteUrl != null && !isSiteUrl(input.siteUrl)) {
    errors.push({ field: 'site_url', message: `must be an absolute http(s) URL of at most ${MAX_SITE_URL_LENGTH} characters` });
  }
  if (errors.length > 0) throw new ValidationFailedError(errors);
  return { kind, scopes: [...PUBLISHABLE_SCOPES], allowedOrigins, siteUrl: input.siteUrl ?? null };
}
