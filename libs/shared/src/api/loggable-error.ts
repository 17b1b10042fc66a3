import { QueryFailedError } from 'typeorm';

/** Causes followed at most (`error.cause`, its cause, …). */
const MAX_CAUSE_DEPTH = 5;

/** What loggableError made: handed to it again (a caller serialized it before logging), it is kept as it is. */
const serialized = new WeakSet<object>();

/**
 * What the logs may say about an error: its type, name, code, message and stack, and its causes (the
 * chain of `cause`, each the same way). A failed query keeps only the statement's first words, the
 * SQLSTATE and the server's message with any quoted value cut out. Never the SQL parameters (attendee
 * data, key and token hashes), never the full statement, never a driver's `detail` (it quotes the
 * offending values). A thrown value that is not an Error is described by its type (and its `code`
 * and `message` when they are strings), never dumped.
 * Used as pino's `err` serializer, so every `{ err }` logged anywhere goes through it, once.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (typeof error === 'object' && error !== null && serialized.has(error)) return error as Record<string, unknown>;
  const out = describe(originalOf(error), 0);
  serialized.add(out);
  return out;
}

/**
 * pino-http runs pino's standard error serializer before this one, which hands over a plain copy of
 * the error (every enumerable property, SQL parameters included) with the error itself as `raw`: this
 * one describes the error, not the copy.
 */
function originalOf(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || error instanceof Error) return error;
  const raw = (error as { raw?: unknown }).raw;
  return raw !== undefined ? raw : error;
}

function describe(error: unknown, depth: number): Record<string, unknown> {
  if (!(error instanceof Error)) return describeValue(error);
  const out: Record<string, unknown> = { type: error.constructor?.name ?? error.name };
  if (error.name && error.name !== out['type']) out['name'] = error.name;
  const driverError = (error as { driverError?: unknown }).driverError;
  if (error instanceof QueryFailedError || driverError) {
    const driver = (driverError ?? {}) as { code?: unknown; message?: unknown };
    out['statement'] = statementName((error as { query?: unknown }).query);
    out['code'] = driver.code ?? (error as { code?: unknown }).code;
    out['message'] = withoutQuotedValues(typeof driver.message === 'string' ? driver.message : error.message);
    const cause = (driverError as { cause?: unknown } | undefined)?.cause;
    if (cause !== undefined && depth < MAX_CAUSE_DEPTH) out['cause'] = describe(cause, depth + 1);
    return out;
  }
  out['message'] = error.message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out['code'] = code;
  if (error.stack) out['stack'] = error.stack;
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) out['cause'] = describe(error.cause, depth + 1);
  return out;
}

function describeValue(value: unknown): Record<string, unknown> {
  const type = value === null ? 'null' : typeof value === 'object' ? ((value as object).constructor?.name ?? 'object') : typeof value;
  const out: Record<string, unknown> = { type, message: `a ${type} was thrown, not an Error` };
  if (typeof value === 'object' && value !== null) {
    const { code, message } = value as { code?: unknown; message?: unknown };
    if (typeof code === 'string') out['code'] = code;
    if (typeof message === 'string') out['message'] = message;
  }
  return out;
}

/**
 * PostgreSQL names what failed in its messages (`unique constraint "users_email_key"`) and, for bad
 * input, quotes the input (`invalid input syntax for type uuid: "…"`): a quoted value after a colon goes.
 */
function withoutQuotedValues(message: string): string {
  return message.replace(/:\s*"(?:[^"\\]|\\.)*"/g, ': "…"');
}

/** The statement's verb and table (`INSERT INTO <table>`, `SELECT … FROM <table>`): enough to find it, nothing of its values. */
function statementName(query: unknown): string | undefined {
  if (typeof query !== 'string') return undefined;
  const words = query.replace(/\s+/g, ' ').trim();
  const head = /^(WITH\s+\w+|INSERT INTO\s+\S+|UPDATE\s+\S+|DELETE FROM\s+\S+|SELECT)/i.exec(words)?.[0] ?? words.split(' ')[0];
  const from = /^SELECT/i.test(head ?? '') ? / FROM\s+([a-z_][a-z0-9_]*)/i.exec(words)?.[1] : undefined;
  return from ? `${head} … FROM ${from}` : head;
}
