import type { FieldEntry, FieldKind } from '../domain/record-fields';

/** A statement and its parameters. User input only ever travels in `values`. */
export interface SqlStatement {
  readonly text: string;
  readonly values: unknown[];
}

/** Collects positional parameters while a statement is assembled: `params.add(value)` returns `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** What only the table knows about a field; every part is optional. */
export interface ColumnSpec<T> {
  /** The column; default: the field's snake_case name. */
  readonly column?: string;
  /**
   * The expression read (selected `AS` the column), given the column as the query names it and the
   * table's alias in the query (if any).
   */
  readonly read?: (column: string, alias: string | undefined) => string;
  /** The statement parameter for a value. */
  readonly encode?: (value: T) => unknown;
  /** The value from what pg answers for the column. */
  readonly decode?: (raw: never) => T;
  /** Kept by the database (a trigger, a computation, a join): read, never inserted or set. */
  readonly readOnly?: true;
}

export type ColumnSpecs<D> = { readonly [K in keyof D]?: ColumnSpec<D[K]> };

type ReadOnlyKeys<C> = { [K in keyof C]: C[K] extends { readonly readOnly: true } ? K : never }[keyof C];

/** The fields of `D` an INSERT or UPDATE writes. */
export type Writable<D, C> = Omit<D, ReadOnlyKeys<C> & keyof D>;

/** What the table reads of a declaration (`RecordFields`). */
export interface DeclaredFields<D> {
  readonly entries: readonly FieldEntry<D>[];
  fromWire(body: object): Partial<D>;
}

interface Column {
  readonly key: string;
  readonly column: string;
  readonly read?: (column: string, alias: string | undefined) => string;
  readonly encode?: (value: unknown) => unknown;
  readonly decode?: (raw: unknown) => unknown;
  readonly readOnly: boolean;
  readonly instant: boolean;
}

/** JSON goes as its text (pg would send a JS array as a PostgreSQL array); SQL NULL stays NULL. */
const jsonText = (value: unknown): unknown => (value === null || value === undefined ? value : JSON.stringify(value));

/** What a field's kind means in SQL, unless its column spec says otherwise. */
function kindDefaults(kind: FieldKind): Pick<Column, 'read' | 'encode'> {
  switch (kind) {
    case 'json':
      return { encode: jsonText };
    // Dates and times leave PostgreSQL as text in the API's formats.
    case 'date':
      return { read: (column) => `to_char(${column}, 'YYYY-MM-DD')` };
    case 'time':
      return { read: (column) => `to_char(${column}, 'HH24:MI')` };
    default:
      return {};
  }
}

/**
 * A resource's table, derived from its declared fields (`RecordFields`) and what only the table
 * knows (`ColumnSpecs`). The statements' constant parts are built once; a row is mapped by one pass
 * over the columns. SQL stays SQL: repositories write their WHERE clauses, joins and locks themselves.
 */
export class FieldTable<D, C extends ColumnSpecs<D> = ColumnSpecs<D>> {
  private readonly writable: readonly Column[];
  private readonly selects = new Map<string, string>();
  private readonly insertText: string;

  private constructor(
    readonly name: string,
    private readonly all: readonly Column[],
  ) {
    this.writable = all.filter((c) => !c.readOnly);
    const placeholders = this.writable.map((_, index) => `$${index + 1}`);
    this.insertText = `INSERT INTO ${name} (${this.writable.map((c) => c.column).join(', ')}) VALUES (${placeholders.join(', ')})`;
  }

  /** See `fieldTable`. */
  static of<D, C extends ColumnSpecs<D>>(name: string, fields: DeclaredFields<D>, columns: C): FieldTable<D, C> {
    const specs = columns as Record<string, ColumnSpec<unknown> | undefined>;
    const all = fields.entries.map((entry): Column => {
      const own = specs[entry.key] ?? {};
      return Object.freeze({
        key: entry.key,
        column: own.column ?? entry.name,
        ...kindDefaults(entry.kind),
        ...(own.read ? { read: own.read } : {}),
        ...(own.encode ? { encode: own.encode } : {}),
        ...(own.decode ? { decode: own.decode as (raw: unknown) => unknown } : {}),
        readOnly: own.readOnly === true,
        instant: entry.kind === 'instant',
      });
    });
    return new FieldTable<D, C>(name, all);
  }

  /**
   * The select list of every field, each named by its column (`alias.column` when an alias is given).
   * `replace` gives a field another expression for this statement, or leaves it out (null); lists
   * without a replacement are built once.
   */
  select(alias?: string, replace?: { readonly [K in keyof D]?: string | null }): string {
    if (replace) return this.buildSelect(alias, replace as Record<string, string | null | undefined>);
    const key = alias ?? '';
    let list = this.selects.get(key);
    if (list === undefined) {
      list = this.buildSelect(alias, {});
      this.selects.set(key, list);
    }
    return list;
  }

  private buildSelect(alias: string | undefined, replace: Record<string, string | null | undefined>): string {
    const parts: string[] = [];
    for (const c of this.all) {
      const replaced = replace[c.key];
      if (replaced === null) continue;
      const qualified = alias ? `${alias}.${c.column}` : c.column;
      if (replaced !== undefined) parts.push(`${replaced} AS ${c.column}`);
      else if (c.read) parts.push(`${c.read(qualified, alias)} AS ${c.column}`);
      else parts.push(qualified);
    }
    return parts.join(', ');
  }

  /** `json_build_object('column', expression, …)` of every field: a record inside another query's row. */
  jsonObject(alias?: string): string {
    const parts = this.all.map((c) => {
      const qualified = alias ? `${alias}.${c.column}` : c.column;
      return `'${c.column}', ${c.read ? c.read(qualified, alias) : qualified}`;
    });
    return `json_build_object(${parts.join(', ')})`;
  }

  /** The record a row (or a `jsonObject`) holds; a field the statement left out stays undefined. */
  fromRow(row: Readonly<Record<string, unknown>>): D {
    const out: Record<string, unknown> = {};
    for (const c of this.all) {
      const raw = row[c.column];
      out[c.key] = c.decode && raw !== undefined && raw !== null ? c.decode(raw) : raw;
    }
    return out as D;
  }

  /** The record a `jsonObject` holds: as `fromRow`, with instants (JSON text there) made dates again. */
  fromJson(object: Readonly<Record<string, unknown>>): D {
    const out = this.fromRow(object) as Record<string, unknown>;
    for (const c of this.all) {
      const value = out[c.key];
      if (c.instant && typeof value === 'string') out[c.key] = new Date(value);
    }
    return out as D;
  }

  /** `INSERT INTO table (columns) VALUES ($1, …)` of the record's writable fields. */
  insert(record: Writable<D, C>): SqlStatement {
    const given = record as Record<string, unknown>;
    return { text: this.insertText, values: this.writable.map((c) => this.param(c, given[c.key])) };
  }

  /**
   * `INSERT INTO table (columns) VALUES (…), (…)` of several records in one statement, placeholders
   * from `$firstParam` on (so it can follow another statement's parameters, as a CTE).
   */
  insertMany(records: readonly Writable<D, C>[], firstParam = 1): SqlStatement {
    const values: unknown[] = [];
    const rows = records.map((record) => {
      const given = record as Record<string, unknown>;
      const placeholders = this.writable.map((c) => {
        values.push(this.param(c, given[c.key]));
        return `$${firstParam + values.length - 1}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    return { text: `INSERT INTO ${this.name} (${this.writable.map((c) => c.column).join(', ')}) VALUES ${rows.join(', ')}`, values };
  }

  /**
   * `column = $n, …` for the fields `changes` gives (undefined: left alone), parameters added to
   * `params`. Column names come only from the declaration, never from input.
   */
  set(params: SqlParams, changes: Partial<Writable<D, C>>): string {
    const given = changes as Record<string, unknown>;
    const parts: string[] = [];
    for (const c of this.writable) {
      const value = given[c.key];
      if (value !== undefined) parts.push(`${c.column} = ${params.add(this.param(c, value))}`);
    }
    return parts.join(', ');
  }

  /** The same table restricted to some fields (for a statement that reads only those). */
  pick<K extends keyof D & string>(...keys: readonly K[]): FieldTable<Pick<D, K>> {
    return new FieldTable<Pick<D, K>>(this.name, this.all.filter((c) => (keys as readonly string[]).includes(c.key)));
  }

  private param(c: Column, value: unknown): unknown {
    return c.encode && value !== null && value !== undefined ? c.encode(value) : value;
  }
}

/** The table `name` of the declared fields, with what only the table knows about some of them. */
export function fieldTable<D, C extends ColumnSpecs<D>>(
  name: string,
  fields: DeclaredFields<D>,
  columns?: C,
): FieldTable<D, C> {
  return FieldTable.of<D, C>(name, fields, (columns ?? {}) as C);
}
