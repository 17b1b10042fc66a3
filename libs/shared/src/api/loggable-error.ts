import { QueryFailedError } from 'typeorm';

/**
 * What the logs may say about an error: its type, message and stack, and for a failed query only the
 * statement's first words and the SQLSTATE. Never the SQL parameters (attendee data, key and token
 * hashes), never the full statement, never a driver's `detail` (it quotes the offending values).
 * Used as pino's `err` serializer, so every `{ err }` logged anywhere goes through it.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: 'non-Error value thrown' };
  const out: Record<string, unknown> = { type: error.constructor?.name ?? error.name };
  const driverError = (error as { driverError?: { code?: unknown } }).driverError;
  if (error instanceof QueryFailedError || driverError) {
    out['statement'] = statementName((error as { query?: unknown }).query);
    out['code'] = (driverError as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
    // pg's message names the constraint or the failure, not the values.
    out['message'] = (driverError as { message?: unknown } | undefined)?.message ?? error.message;
    return out;
  }
  out['message'] = error.message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') out['code'] = code;
  if (error.stack) out['stack'] = error.stack;
  return out;
}

/** The statement's verb and table (`INSERT INTO <table>`, `SELECT … FROM <table>`): enough to find it, nothing of its values. */
function statementName(query: unknown): string | undefined {
  if (typeof query !== 'string') return undefined;
  const words = query.replace(/\s+/g, ' ').trim();
  const head = /^(WITH\s+\w+|INSERT INTO\s+\S+|UPDATE\s+\S+|DELETE FROM\s+\S+|SELECT)/i.exec(words)?.[0] ?? words.split(' ')[0];
  const from = /^SELECT/i.test(head ?? '') ? / FROM\s+([a-z_][a-z0-9_]*)/i.exec(words)?.[1] : undefined;
  return from ? `${head} … FROM ${from}` : head;
}
