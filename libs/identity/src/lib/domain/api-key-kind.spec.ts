import { ValidationFailedError } from '@almanac/shared/domain';
import { ApiKeyTermsInput, canonicalOrigin, resolveApiKeyTerms } from './api-key-kind';
import { API_KEY_PATTERN, generateApiKey, PUBLISHABLE_KEY_PATTERN } from './api-key-secret';
import { SCOPES } from './scopes';

function fieldsOf(input: ApiKeyTermsInput): string[] {
  try {
    resolveApiKeyTerms(input);
  } catch (error) {
    if (error instanceof ValidationFailedError) return (error.errors ?? []).map((e) => e.field);
    throw error;
  }
  return [];
}

describe('API key kinds', () => {
  it('makes secret keys by default, with every scope when none is given', () => {
    expect(resolveApiKeyTerms({})).toEqual({ kind: 'secret', scopes: [...SCOPES], allowedOrigins: [], siteUrl: null });
    expect(resolveApiKeyTerms({ scopes: ['bookings:read'] }).scopes).toEqual(['bookings:read']);
  });

  it('gives a publishable key exactly the two read scopes, asked or not', () => {
    const expected = { kind: 'publishable', scopes: ['posts:read', 'events:read'], allowedOrigins: [], siteUrl: null };
    expect(resolveApiKeyTerms({ kind: 'publishable' })).toEqual(expected);
    expect(resolveApiKeyTerms({ kind: 'publishable', scopes: [] })).toEqual(expected);
    expect(resolveApiKeyTerms({ kind: 'publishable', scopes: ['events:read', 'posts:read'] })).toEqual(expected);
    expect(resolveApiKeyTerms({ kind: 'publishable', scopes: ['posts:read', 'events:read', 'posts:read'] })).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ['one of the two', ['posts:read']],
    ['a write scope', ['posts:read', 'events:read', 'posts:write']],
    ['another read scope', ['posts:read', 'bookings:read']],
    ['an unknown scope', ['posts:read', 'events:read', 'nope']],
  ])('refuses a publishable key with %s (400 on scopes)', (_why, scopes) => {
    expect(fieldsOf({ kind: 'publishable', scopes })).toEqual(['scopes']);
  });

  it('canonicalises origins the way browsers send them and drops repeats', () => {
    const terms = resolveApiKeyTerms({
      kind: 'publishable',
      allowedOrigins: ['HTTPS://WWW.Example.com', 'https://www.example.com:443', 'http://localhost:8080', 'http://localhost:80'],
      siteUrl: 'https://www.example.com/blog',
    });
    expect(terms.allowedOrigins).toEqual(['https://www.example.com', 'http://localhost:8080', 'http://localhost']);
    expect(terms.siteUrl).toBe('https://www.example.com/blog');
  });

  it.each([
    'https://www.example.com/',
    'https://www.example.com/path',
    'https://www.example.com?q=1',
    'https://user@www.example.com',
    'ftp://www.example.com',
    'www.example.com',
    'null',
    '*',
    'https://',
    `https://${'a'.repeat(300)}.com`,
  ])('refuses %j as an origin, naming its index', (origin) => {
    expect(canonicalOrigin(origin)).toBeNull();
    expect(fieldsOf({ kind: 'publishable', allowedOrigins: ['https://ok.example', origin] })).toEqual(['allowed_origins[1]']);
  });

  it('lists every failing field of a publishable key at once', () => {
    expect(fieldsOf({ kind: 'publishable', scopes: ['posts:write'], allowedOrigins: ['nope'], siteUrl: 'javascript:alert(1)' })).toEqual([
      'scopes',
      'allowed_origins[0]',
      'site_url',
    ]);
    expect(fieldsOf({ kind: 'publishable', allowedOrigins: Array.from({ length: 51 }, (_, i) => `https://o${i}.example`) })).toEqual([
      'allowed_origins',
    ]);
  });

  it('refuses origins and a site URL on a secret key', () => {
    expect(fieldsOf({ allowedOrigins: ['https://a.example'], siteUrl: 'https://a.example' })).toEqual(['allowed_origins', 'site_url']);
    expect(fieldsOf({ kind: 'secret', allowedOrigins: [], siteUrl: null })).toEqual([]);
  });

  it('writes publishable keys as alm_pub_ and 32 base62 characters, and the authenticator accepts both kinds', () => {
    const publishable = generateApiKey('publishable');
    const secret = generateApiKey();
    expect(publishable).toMatch(/^alm_pub_[0-9A-Za-z]{32}$/);
    expect(secret).toMatch(/^alm_[0-9A-Za-z]{32}$/);
    expect(API_KEY_PATTERN.test(publishable) && API_KEY_PATTERN.test(secret)).toBe(true);
    expect(PUBLISHABLE_KEY_PATTERN.test(secret)).toBe(false);
  });
});
