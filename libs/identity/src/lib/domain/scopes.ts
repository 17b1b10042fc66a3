import { DomainError } from '@almanac/shared/domain';

export const SCOPES = [
  'bookings:read',
  'bookings:write',
  'events:read',
  'events:write',
  'posts:read',
  'posts:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A key created without scopes has all of them. */
export function normalizeScopes(scopes: readonly string[] | undefined): Scope[] {
  if (!scopes || scopes.length === 0) return [...SCOPES];
  const invalid = scopes.filter((s) => !isScope(s));
  if (invalid.length > 0) {
    throw new DomainError('validation_failed', `unknown scope(s): ${invalid.join(', ')}; known: ${SCOPES.join(', ')}`, [
      { field: 'scopes', message: `unknown scope(s): ${invalid.join(', ')}` },
    ]);
  }
  return [...new Set(scopes as Scope[])];
}
