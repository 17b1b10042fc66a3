/**
 * Framework-free helpers for assembling parameterised SQL (no TypeORM, no Nest at run time), so the
 * bench's floor server can build the very same statements from the compiled code.
 */

/** Collects positional parameters while a query is assembled: `p.add(value)` returns `$n`. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Escapes LIKE wildcards so user text matches literally (with `ESCAPE '\'`). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `col = $n, …` for the given changes. Column names come only from `columns` (a fixed map from
 * field to column), never from input; values become parameters.
 */
export function setClause<F extends string>(
  p: Params,
  changes: Partial<Record<F, unknown>>,
  columns: Readonly<Record<F, string>>,
): string {
  const parts: string[] = [];
  for (const field of Object.keys(columns) as F[]) {
    if (changes[field] !== undefined) parts.push(`${columns[field]} = ${p.add(changes[field])}`);
  }
  return parts.join(', ');
}

/** A statement and its parameters. User input only ever travels in `values`. */
export interface SqlStatement {
  readonly text: string;
  readonly values: unknown[];
}
