import { Scope, SCOPES } from './scopes';

/*
 * The kinds of change the contexts announce through the outbox (`booking.created`, …), each with the
 * scope that lets an API key read it. A context declares its own from its module file, as it declares
 * its scopes and registers its error codes; the webhooks context reads this registry to validate
 * subscriptions, to filter the change feed and to list the types in the OpenAPI document.
 */

interface DeclaredEventType {
  scope: Scope;
  context: string;
  /** Its place in the context's declaration. */
  position: number;
}

const declared = new Map<string, DeclaredEventType>();
/** Every declared type in the order of `compare`; views of it are kept equal to it. */
let ordered: string[] = [];
const views: Array<{ head: readonly string[]; list: string[] }> = [];

/**
 * The order types are listed in, whatever order the module files load in: by the scope that reads
 * them (as `SCOPES` lists them), then by context name, then as the context declared them.
 */
function compare(a: DeclaredEventType, b: DeclaredEventType): number {
  return (
    SCOPES.indexOf(a.scope) - SCOPES.indexOf(b.scope) ||
    (a.context < b.context ? -1 : a.context > b.context ? 1 : 0) ||
    a.position - b.position
  );
}

/**
 * Declares the event types a context records and the scope that reads each. A type belongs to one
 * context and has one scope: declaring it again otherwise is a programming error.
 */
export function declareEventTypes(context: string, types: Readonly<Record<string, Scope>>): void {
  for (const [position, [type, scope]] of Object.entries(types).entries()) {
    const known = declared.get(type);
    if (known && (known.context !== context || known.scope !== scope)) {
      throw new Error(`event type ${type} is already declared by ${known.context} (read with ${known.scope})`);
    }
    if (!known) declared.set(type, { scope, context, position });
  }
  ordered = [...declared.entries()].sort(([, a], [, b]) => compare(a, b)).map(([type]) => type);
  for (const view of views) view.list.splice(0, view.list.length, ...view.head, ...ordered);
}

/** Every declared event type, in a stable order (see `compare`). */
export function eventTypes(): readonly string[] {
  return ordered;
}

/** Every declared event type with the scope that reads it and the context that declared it. */
export function declaredEventTypes(): ReadonlyMap<string, Readonly<{ scope: Scope; context: string }>> {
  return declared;
}

/** The scope that reads events of this type; undefined for a type nobody declared. */
export function readScopeOf(type: string): Scope | undefined {
  return declared.get(type)?.scope;
}

/**
 * An array holding `head`, then every declared event type, kept so as contexts declare theirs. For
 * decorators, which keep the array they are given when their class is defined: a context's module
 * file may load after that class, and the validator and the OpenAPI document read the array when
 * they run, when every context has declared its types.
 */
export function eventTypeList(head: readonly string[] = []): readonly string[] {
  const list = [...head, ...ordered];
  views.push({ head: [...head], list });
  return list;
}
