import { afterTimeout } from './delivery-limits';

describe('backing off an endpoint that keeps timing out', () => {
  it.each([
    [0, 1, 10_000],
    [1, 2, 20_000],
    [2, 3, 40_000],
    [5, 6, 320_000],
    [6, 7, 600_000],
    [20, 21, 600_000],
  ])('claimed after %i timeouts in a row, a timeout makes %i and pauses the endpoint %i ms', (atClaim, count, pauseMs) => {
    expect(afterTimeout(atClaim)).toEqual({ count, pauseMs });
  });
});
