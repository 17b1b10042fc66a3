import { eventTypeList, eventTypes, readScopeOf, Scope, SCOPES } from '@almanac/identity';

/** Subscribes an endpoint to every event type, those declared later included. */
export const ALL_EVENTS = '*';

/**
 * What an endpoint's `events` may hold: `*` and every event type a context declared (each context
 * declares its own from its module file). The array is kept current as contexts declare theirs, so
 * validators and the OpenAPI document, which keep it from when the DTOs are defined, see them all.
 */
export const SUBSCRIBABLE_EVENTS = eventTypeList([ALL_EVENTS]) as string[]; // mutable in type only: @ApiProperty's `enum` asks for that

/** Event types a key with these scopes may read in the change feed. */
export function readableEventTypes(scopes: readonly string[]): string[] {
  return eventTypes().filter((type) => scopes.includes(readScopeOf(type)!));
}

/**
 * What a subscription to `events` needs that a key with `scopes` lacks: the names that need more,
 * and the scopes they need. Each event type needs the scope the change feed shows it with, and `*`
 * the scope of every declared type: a subscription must not deliver what the key could not read.
 */
export function missingReadScopes(events: readonly string[], scopes: readonly Scope[]): { events: string[]; scopes: Scope[] } {
  const lacking = (type: string): Scope[] => {
    const scope = readScopeOf(type);
    return scope !== undefined && !scopes.includes(scope) ? [scope] : [];
  };
  const short = events
    .map((name) => ({ name, missing: name === ALL_EVENTS ? eventTypes().flatMap(lacking) : lacking(name) }))
    .filter((n) => n.missing.length > 0);
  const missing = new Set(short.flatMap((n) => n.missing));
  return { events: short.map((n) => n.name), scopes: SCOPES.filter((scope) => missing.has(scope)) };
}
