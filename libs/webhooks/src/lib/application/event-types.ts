import { eventTypeList, eventTypes, readScopeOf } from '@almanac/identity';

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
