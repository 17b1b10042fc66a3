/*
 * A resource's fields, declared once (in its context's domain) and checked against its domain type:
 * a field the type has but the declaration lacks, or the other way round, does not compile. From the
 * declaration come the resource's representation (what its single GET answers and its events carry),
 * the reading of a request body into domain fields, and, in the context's infrastructure
 * (`fieldTable` of @almanac/shared), its table's SELECT list, row mapping, INSERT and SET clause.
 *
 * Names follow one rule: a field `startTime` is `start_time` in the representation, in request bodies
 * and (unless its table says otherwise) in the table. The declaration's order is the
 * representation's order.
 */

/** How a value is held, shown and stored. */
export type FieldKind = 'value' | 'instant' | 'json' | 'date' | 'time';

export interface FieldSpec<T> {
  readonly kind: FieldKind;
  /** In the representation, under the field's snake_case name; false: stored, never shown. */
  readonly shown: boolean;
  /** How the representation shows the value, when not as it is. */
  readonly show?: (value: never) => unknown;
  /** Which values the field holds: a type witness only, never called. */
  readonly accepts?: (value: T) => void;
}

const spec = <T>(kind: FieldKind): FieldSpec<T> => Object.freeze({ kind, shown: true });

/** The field kinds a declaration is written with. */
export const field = {
  /** Held, shown and stored as it is: text, numbers, booleans, enums. */
  value: spec<unknown>('value'),
  /** A point in time: a `Date`, shown as ISO 8601 (`toISOString`), a `timestamptz` column. */
  instant: spec<Date | null>('instant'),
  /** A JSON value (object or array), shown as it is, stored as `jsonb`. */
  json: spec<object | null>('json'),
  /** A calendar date `YYYY-MM-DD`, a `date` column. */
  date: spec<string | null>('date'),
  /** A time of day `HH:MM`, a `time` column. */
  time: spec<string | null>('time'),
  /**
   * A JSON value shown through `show`: objects in the representation's own key order, whatever
   * order jsonb keeps (it sorts keys by length).
   */
  jsonShown<T extends object | null>(show: (value: T) => unknown): FieldSpec<T> {
    return Object.freeze({ kind: 'json' as const, shown: true, show: show as (value: never) => unknown });
  },
  /** Stored, never shown (the owning organization, values derived for queries). */
  hidden<S extends FieldSpec<never>>(of: S): Omit<S, 'shown'> & { readonly shown: false } {
    return Object.freeze({ ...of, shown: false as const });
  },
};

/** One spec per field of `D`, no more, no fewer (an optional field may be absent from a record). */
export type FieldSpecs<D> = { readonly [K in keyof D]-?: FieldSpec<Exclude<D[K], undefined>> };

/** `startTime` → `start_time`. */
export type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : S;

export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

type WireValue<T> = T extends Date ? string : T;

/** A record of `D` as its representation shows it: the shown fields, snake_case, instants as strings. */
export type Wire<D, F> = {
  -readonly [K in keyof D & keyof F & string as F[K] extends { readonly shown: false } ? never : SnakeCase<K>]: WireValue<D[K]>;
};

export interface FieldEntry<D> {
  readonly key: keyof D & string;
  readonly kind: FieldKind;
  readonly shown: boolean;
  readonly show?: (value: unknown) => unknown;
  /** The snake_case name (the representation's, and the column's unless the table says otherwise). */
  readonly name: string;
}

/** The declared fields of `D`, with what is derived from them computed once. */
export class RecordFields<D, F extends FieldSpecs<D> = FieldSpecs<D>> {
  readonly entries: readonly FieldEntry<D>[];
  private readonly shownEntries: readonly FieldEntry<D>[];

  constructor(readonly specs: F) {
    this.entries = Object.entries(specs as Record<string, FieldSpec<unknown>>).map(([key, s]) =>
      Object.freeze({
        key: key as keyof D & string,
        kind: s.kind,
        shown: s.shown,
        name: snakeCase(key),
        ...(s.show ? { show: s.show as (value: unknown) => unknown } : {}),
      }),
    );
    this.shownEntries = this.entries.filter((entry) => entry.shown);
  }

  /** The record as the API shows it, in declaration order. */
  represent(record: D): Wire<D, F> {
    const out: Record<string, unknown> = {};
    for (const entry of this.shownEntries) {
      const value = record[entry.key] as unknown;
      if (entry.show) out[entry.name] = entry.show(value);
      else out[entry.name] = entry.kind === 'instant' && value instanceof Date ? value.toISOString() : value;
    }
    return out as Wire<D, F>;
  }

  /**
   * The fields a request body carries (by their snake_case names), as domain values: absent stays
   * absent (`undefined`), null stays null, an instant's text becomes a `Date`. Which fields a body may
   * carry is its DTO's business (the validation pipe refuses any other); this only renames.
   */
  fromWire(body: object): Partial<D> {
    const given = body as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const entry of this.entries) {
      const value = given[entry.name];
      if (value === undefined) continue;
      out[entry.key] = entry.kind === 'instant' && typeof value === 'string' ? new Date(value) : value;
    }
    return out as Partial<D>;
  }
}

/**
 * Declares the fields of `D` (`recordFields<Booking>()({ id: field.value, … })`): the object must
 * name exactly the fields of `D`, each with a kind that can hold its type.
 */
export function recordFields<D>() {
  return <F extends FieldSpecs<D>>(specs: F & { readonly [K in Exclude<keyof F, keyof D>]: never }): RecordFields<D, F> =>
    new RecordFields<D, F>(specs);
}
