import { nextAttemptAt, verdictOf } from './retry-schedule';

describe('retry schedule', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const policy = { maxAttempts: 8, baseSeconds: 30 };

  it.each([
    [1, 30],
    [2, 120],
    [3, 480],
    [7, 30 * 4 ** 6],
  ])('after failure %i the next attempt comes base × 4^(n−1) = %i s later (without jitter)', (n, seconds) => {
    expect(nextAttemptAt(now, n, policy, 0.5)!.getTime() - now.getTime()).toBe(seconds * 1000);
  });

  it('spreads by ±10 %', () => {
    expect(nextAttemptAt(now, 1, policy, 0)!.getTime() - now.getTime()).toBe(27_000);
    expect(nextAttemptAt(now, 1, policy, 0.999999)!.getTime() - now.getTime()).toBe(33_000);
  });

  it('gives up after the last attempt', () => {
    expect(nextAttemptAt(now, 8, policy, 0.5)).toBeNull();
  });

  it.each([
    [200, 'succeeded'],
    [299, 'succeeded'],
    [301, 'retry'],
    [410, 'gone'],
    [500, 'retry'],
    [null, 'retry'],
  ] as const)('an answer %s means %s', (status, verdict) => expect(verdictOf(status)).toBe(verdict));
});
