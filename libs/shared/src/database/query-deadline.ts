import { Client, type ClientConfig } from 'pg';

/**
 * How long a statement may go unanswered before the database is asked whether it still answers, and
 * how long that question may take; `ms` 0: without a bound (while migrations run).
 */
export interface QueryDeadline {
  ms: number;
  probeMs: number;
}

/**
 * The longest a statement may run on a database that keeps answering (waiting for a lock on a busy
 * machine, say): far beyond any statement of ours, short enough that nothing waits for ever.
 */
export const STATEMENT_MAX_MS = 30_000;

/** How long a database found not answering stays known as such: connections asked for meanwhile fail at once. */
const KNOWN_DOWN_MS = 1_000;
/** How long one answer of the probe holds for every statement that asks. */
const PROBE_ANSWER_MS = 250;

/** What a statement that outlived its deadline fails with (the filter answers 503 for `ETIMEDOUT`). */
export function queryDeadlineError(ms: number): Error {
  return Object.assign(new Error(`the database did not answer within ${ms} ms; the connection was closed`), { code: 'ETIMEDOUT' });
}

type QueryCallback = (error: Error | null, result?: unknown) => void;
type Stream = { destroy(error?: Error): void };

/**
 * Whether the database answers `SELECT 1` on a connection of its own within `probeMs`: one probe at a
 * time, its answer shared by every statement that asks within PROBE_ANSWER_MS.
 */
class Liveness {
  private probe?: Promise<boolean>;
  private answer?: { alive: boolean; at: number };

  constructor(private readonly config: ClientConfig | string | undefined) {}

  knownDown(): boolean {
    return this.answer?.alive === false && Date.now() - this.answer.at < KNOWN_DOWN_MS;
  }

  answers(probeMs: number): Promise<boolean> {
    if (this.answer && Date.now() - this.answer.at < PROBE_ANSWER_MS) return Promise.resolve(this.answer.alive);
    this.probe ??= this.ask(probeMs).then((alive) => {
      this.answer = { alive, at: Date.now() };
      this.probe = undefined;
      return alive;
    });
    return this.probe;
  }

  private async ask(probeMs: number): Promise<boolean> {
    const base = typeof this.config === 'string' ? { connectionString: this.config } : { ...this.config };
    const client = new Client({ ...base, connectionTimeoutMillis: probeMs, application_name: 'almanac-probe' });
    client.on('error', () => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), probeMs)));
    const answered = (async () => {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    })().catch(() => false);
    const alive = await Promise.race([answered, late]);
    clearTimeout(timer);
    const stream = (client as unknown as { connection?: { stream?: Stream } }).connection?.stream;
    if (alive) void client.end().catch(() => undefined);
    else stream?.destroy();
    return alive;
  }
}

/**
 * A pg `Client` (the pool's, through its `Client` option) whose statements have a deadline. A statement
 * not answered within `ms` makes it ask the database, on a connection of its own, whether it still
 * answers: if it does (the statement waits for a lock, the machine is busy), the statement goes on and
 * the question is asked again every `ms`, up to STATEMENT_MAX_MS; if it does not, the connection is
 * ended, which fails the statement and everything queued on it with `queryDeadlineError` (503), the
 * pool replaces the connection, and for the next second new connections fail at once instead of each
 * waiting for a database known not to answer. A new connection's handshake is bounded by twice `ms`.
 *
 * Why the connection and not the statement: a database that stopped answering (frozen, the network
 * cut) cannot be asked to cancel anything, and node-pg's own `query_timeout` fails the statement but
 * leaves the connection busy with it and hands it back to the pool, so the next user would queue
 * behind it, inside whatever transaction it left open. A closed connection leaves nothing behind: when
 * the server reads again it sees the end of the connection and rolls back the transaction it held
 * (a COMMIT that was already sent still commits). Why ask before ending: a slow answer from a live
 * database (a queue of 40 requests for one row's lock on a loaded machine) is not an outage, and
 * ending it would turn a wait into a 503. None of this needs session state, so it works as well behind
 * PgBouncer in transaction pooling mode.
 */
export function clientWithDeadline(deadline: QueryDeadline): typeof Client {
  let liveness: Liveness | undefined;
  return class DeadlineClient extends Client {
    constructor(config?: ClientConfig | string) {
      // A handshake is not asked about (there is no connection to ask on yet): it gets twice the deadline.
      const handshake = deadline.ms > 0 ? { connectionTimeoutMillis: 2 * deadline.ms } : {};
      super(typeof config === 'string' ? { connectionString: config, ...handshake } : { ...config, ...handshake });
      liveness ??= new Liveness(config);
    }

    override connect(...args: unknown[]): never {
      const callback = args[0] as ((error: Error) => void) | undefined;
      if (deadline.ms > 0 && liveness?.knownDown()) {
        const error = queryDeadlineError(deadline.ms);
        if (callback) {
          process.nextTick(() => callback(error));
          return undefined as never;
        }
        return Promise.reject(error) as never;
      }
      return (super.connect as (...a: unknown[]) => never)(...args);
    }

    override query(...args: unknown[]): never {
      const ms = deadline.ms;
      if (ms <= 0) return (super.query as (...a: unknown[]) => never)(...args);
      const stream = () => (this as unknown as { connection?: { stream?: Stream } }).connection?.stream;
      const started = Date.now();
      let answered = false;
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        const end = () => {
          if (!answered) stream()?.destroy(queryDeadlineError(ms));
        };
        if (Date.now() - started + ms > STATEMENT_MAX_MS) return end();
        void liveness!.answers(deadline.probeMs).then((alive) => {
          if (answered) return;
          if (alive) timer = setTimeout(check, ms);
          else end();
        });
      };
      timer = setTimeout(check, ms);
      const done = () => {
        answered = true;
        clearTimeout(timer);
      };
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as QueryCallback;
        args[last] = (error: Error | null, result?: unknown) => {
          done();
          callback(error, result);
        };
        return (super.query as (...a: unknown[]) => never)(...args);
      }
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (result instanceof Promise) {
        // A derived promise that handles both outcomes: the caller keeps `result` and its rejection.
        result.then(done, done);
      } else {
        // A submittable (a cursor, a stream) answers in its own time: not bounded here, and unused.
        done();
      }
      return result as never;
    }
  };
}
