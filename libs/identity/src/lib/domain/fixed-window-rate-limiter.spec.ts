import { FixedWindowRateLimiter } from './fixed-window-rate-limiter';

describe('FixedWindowRateLimiter', () => {
  it('allows `limit` requests per window, counts down, then refuses until the window ends', () => {
    const limiter = new FixedWindowRateLimiter(3, 60_000);
    const t0 = 1_000_000;
    expect(limiter.hit('k', t0)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    expect(limiter.hit('k', t0 + 1_500)).toEqual({ allowed: true, limit: 3, remaining: 1, resetSeconds: 59 });
    expect(limiter.hit('k', t0 + 20_000)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 40 });
    expect(limiter.hit('k', t0 + 59_001)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 1 });
    expect(limiter.hit('k', t0 + 60_000)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
  });

  it('does not count refused requests', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000);
    expect(limiter.hit('k', 0).allowed).toBe(true);
    for (let i = 1; i < 10; i++) expect(limiter.hit('k', i * 1000).allowed).toBe(false);
    expect(limiter.hit('k', 60_000).remaining).toBe(0);
  });

  it('counts a costly request as several units, refuses one that costs more than is left, and caps a cost at the limit', () => {
    const limiter = new FixedWindowRateLimiter(10, 60_000);
    expect(limiter.hit('k', 0, 7)).toEqual({ allowed: true, limit: 10, remaining: 3, resetSeconds: 60 });
    // 3 units left: a 4-unit request is refused (and not counted), a 1-unit one still passes.
    expect(limiter.hit('k', 1_000, 4)).toEqual({ allowed: false, limit: 10, remaining: 3, resetSeconds: 59 });
    expect(limiter.hit('k', 2_000)).toEqual({ allowed: true, limit: 10, remaining: 2, resetSeconds: 58 });
    // A request dearer than the whole quota costs the whole quota: it passes in a fresh window.
    expect(limiter.hit('fresh', 0, 62)).toEqual({ allowed: true, limit: 10, remaining: 0, resetSeconds: 60 });
    expect(limiter.hit('frac', 0, 0.2).remaining).toBe(9);
  });

  it('keeps keys apart', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000);
    expect(limiter.hit('a', 0).allowed).toBe(true);
    expect(limiter.hit('a', 1).allowed).toBe(false);
    expect(limiter.hit('b', 1).allowed).toBe(true);
  });

  it('starts a new window when the clock goes backwards', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000);
    limiter.hit('k', 100_000);
    expect(limiter.hit('k', 50_000).allowed).toBe(true);
  });

  it('bounds its memory: ended windows are dropped, then the oldest running ones', () => {
    const limiter = new FixedWindowRateLimiter(5, 60_000, 3);
    limiter.hit('a', 0);
    limiter.hit('b', 0);
    limiter.hit('c', 70_000);
    limiter.hit('d', 70_000); // a and b have ended
    expect(limiter.size).toBe(2);
    limiter.hit('e', 70_000);
    limiter.hit('f', 70_000); // all running: the oldest (c) goes
    expect(limiter.size).toBe(3);
    expect(limiter.hit('d', 70_001).remaining).toBe(3);
  });
});
