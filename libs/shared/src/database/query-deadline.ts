import { Client } from 'pg';

/** How long a statement may go unanswered; 0: without a bound (while migrations run). */
export interface QueryDeadline {
  ms: number;
}

/** What a statement that outlived its deadline fails with (the filter answers 503 for `ETIMEDOUT`). */
export function queryDeadlineError(ms: number): Error {
  return Object.assign(new Error(`the database did not answer within ${ms} ms; the connection was closed`), { code: 'ETIMEDOUT' });
}

type QueryCallback = (error: Error | null, result?: unknown) => void;

/**
 * A pg `Client` (the pool's, through its `Client` option) whose statements have a deadline: one that
 * has not been answered by then ends its connection, which fails it and everything queued on that
 * connection with `queryDeadlineError` (503), and the pool replaces the connection.
 *
 * Why the connection and not the statement: a database that stopped answering (frozen, the network
 * cut) cannot be asked to cancel anything, and node-pg's own `query_timeout` fails the statement but
 * leaves the connection busy with it and hands it back to the pool, so the next user would queue
 * behind it, inside whatever transaction it left open. A closed connection leaves nothing behind: when
 * the server reads again it sees the end of the connection and rolls back the transaction it held
 * (a COMMIT that was already sent still commits). It needs no session state, so it works as well
 * behind PgBouncer in transaction pooling mode.
 */
export function clientWithDeadline(deadline: QueryDeadline): typeof Client {
  return class DeadlineClient extends Client {
    override query(...args: unknown[]): never {
      const ms = deadline.ms;
      if (ms <= 0) return (super.query as (...a: unknown[]) => never)(...args);
      const stream = () => (this as unknown as { connection?: { stream?: { destroy(error?: Error): void } } }).connection?.stream;
      const timer = setTimeout(() => stream()?.destroy(queryDeadlineError(ms)), ms);
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as QueryCallback;
        args[last] = (error: Error | null, result?: unknown) => {
          clearTimeout(timer);
          callback(error, result);
        };
        return (super.query as (...a: unknown[]) => never)(...args);
      }
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (result instanceof Promise) {
        // A derived promise that handles both outcomes: the caller keeps `result` and its rejection.
        result.then(
          () => clearTimeout(timer),
          () => clearTimeout(timer),
        );
      } else {
        // A submittable (a cursor, a stream) answers in its own time: not bounded here, and unused.
        clearTimeout(timer);
      }
      return result as never;
    }
  };
}
