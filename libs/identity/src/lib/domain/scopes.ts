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

const declared = new Map<Scope, string>();

/**
 * A context declares the scopes its routes require (from its module file, as it registers its error
 * codes). Identity keeps the vocabulary of API keys (`SCOPES`); a scope belongs to one context.
 */
export function declareScopes(context: string, scopes: readonly Scope[]): void {
  for (const scope of scopes) {
    const owner = declared.get(scope);
    if (owner !== undefined && owner !== context) throw new Error(`scope ${scope} is already declared by ${owner}`);
    declared.set(scope, context);
  }
}

/** Every declared scope with the context that declared it. */
export function declaredScopes(): ReadonlyMap<Scope, string> {
  return declared;
}
