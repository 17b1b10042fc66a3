import { isMoneyAmount, MAX_COST, moneyFromDecimal, moneyToDecimal } from './money';

describe('money', () => {
  it.each([
    [0, true],
    [19.99, true],
    [0.1, true],
    [0.3, true],
    [10, true],
    [1234567.89, true],
    [MAX_COST, true],
    [0.001, false],
    [19.999, false],
    [1e-7, false],
    [-1, false],
    [-0.01, false],
    [MAX_COST + 0.01, false],
    [1e21, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    ['10', false],
    [null, false],
    [true, false],
  ])('isMoneyAmount(%p) = %p', (value, expected) => expect(isMoneyAmount(value)).toBe(expected));

  it('round-trips through the stored decimal without drift', () => {
    for (const amount of [0, 0.1, 0.2, 0.3, 19.99, 1.1, 2.67, 99.95, 1234567.89, MAX_COST]) {
      const stored = moneyToDecimal(amount);
      expect(stored).not.toMatch(/e/i);
      expect(moneyFromDecimal(Number(stored).toFixed(2))).toBe(amount);
    }
    expect(moneyToDecimal(19.99)).toBe('19.99');
    expect(moneyFromDecimal('19.90')).toBe(19.9);
    expect(moneyFromDecimal('0.00')).toBe(0);
  });

  it('refuses to store what is not an amount', () => {
    expect(() => moneyToDecimal(0.001)).toThrow(RangeError);
    expect(() => moneyFromDecimal('abc')).toThrow(RangeError);
  });
});
