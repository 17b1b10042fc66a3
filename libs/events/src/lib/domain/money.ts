/** The largest cost an event may have: what `numeric(12,2)` stores. */
export const MAX_COST = 9_999_999_999.99;

/**
 * A dollar amount: a finite number ≥ 0 with at most two decimals. Decided on the number's shortest
 * decimal representation (what JSON carried), so 19.99 passes and 0.001 or 1e-7 do not.
 */
export function isMoneyAmount(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_COST) return false;
  return /^\d+(\.\d{1,2})?$/.test(String(value));
}

/** The exact decimal text stored in PostgreSQL (`numeric(12,2)`), never through float arithmetic. */
export function moneyToDecimal(amount: number): string {
  if (!isMoneyAmount(amount)) throw new RangeError(`not a money amount: ${amount}`);
  return String(amount);
}

/** `numeric` text from PostgreSQL ("19.99", "0.00") to the JSON number it stands for. */
export function moneyFromDecimal(decimal: string): number {
  if (!/^\d+(\.\d+)?$/.test(decimal)) throw new RangeError(`not a decimal amount: ${decimal}`);
  return Number(decimal);
}
