/** Items handled between two turns of the event loop by `inTurns`. */
export const ITEMS_PER_TURN = 1000;

/** Lets the event loop turn once (timers, I/O, other requests) before going on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Calls `each` for every item, letting the event loop turn after every ITEMS_PER_TURN of them: work
 * over tens of thousands of items (a calendar import's occurrences) then holds the loop for no more
 * than one slice, and other requests are served in between.
 */
export async function inTurns<T>(items: readonly T[], each: (item: T, index: number) => void): Promise<void> {
  for (let index = 0; index < items.length; index++) {
    if (index > 0 && index % ITEMS_PER_TURN === 0) await nextTurn();
    each(items[index]!, index);
  }
}
