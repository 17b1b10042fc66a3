/** A change-feed position: the transaction that wrote an event and its place in it (both decimal). */
export interface CursorPosition {
  txId: string;
  seq: string;
}

/**
 * A cursor as the feed gives it out: `{txId}.{seq}`. Any such cursor is one the feed takes (one past
 * every event reads an empty page), so the document's pattern is exactly what the server accepts.
 */
export const CURSOR_PATTERN = '^[0-9]{1,19}\\.[0-9]{1,19}$';
const CURSOR = new RegExp(CURSOR_PATTERN);
/** xid8 and bigint hold at most 2^63 - 1: a larger position is read as that one, past every event. */
const LARGEST = 9_223_372_036_854_775_807n;
const DECIMAL = /^[0-9]{1,19}$/;

export function encodeCursor(position: CursorPosition): string {
  return `${position.txId}.${position.seq}`;
}

/** The position a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): CursorPosition | null {
  if (CURSOR.test(cursor)) {
    const [txId, seq] = cursor.split('.') as [string, string];
    return { txId: atMostLargest(txId), seq: atMostLargest(seq) };
  }
  return decodeEarlierCursor(cursor);
}

function atMostLargest(decimal: string): string {
  const value = BigInt(decimal);
  return (value > LARGEST ? LARGEST : value).toString();
}

/**
 * Cursors given out before they were plain text: base64url of the same `{txId}.{seq}`. Still taken,
 * so that a client holding one reads on (events are kept 30 days); the document gives the new form.
 */
function decodeEarlierCursor(cursor: string): CursorPosition | null {
  if (cursor.length === 0 || cursor.length > 64 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const [txId, seq, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || !txId || !seq || !DECIMAL.test(txId) || !DECIMAL.test(seq)) return null;
  if (BigInt(txId) > LARGEST || BigInt(seq) > LARGEST) return null;
  return { txId, seq };
}
