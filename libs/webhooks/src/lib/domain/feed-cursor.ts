/** An opaque change-feed cursor: base64url of `{txId}.{seq}` (both decimal). */
export interface CursorPosition {
  txId: string;
  seq: string;
}

const DECIMAL = /^\d{1,19}$/;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.txId}.${position.seq}`).toString('base64url');
}

/** The position a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): CursorPosition | null {
  if (cursor.length === 0 || cursor.length > 64 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const [txId, seq, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || !txId || !seq || !DECIMAL.test(txId) || !DECIMAL.test(seq)) return null;
  // xid8 and bigint are at most 2^63 - 1.
  if (BigInt(txId) > 9_223_372_036_854_775_807n || BigInt(seq) > 9_223_372_036_854_775_807n) return null;
  return { txId, seq };
}
