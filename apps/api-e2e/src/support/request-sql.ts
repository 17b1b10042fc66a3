import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { SqlClient } from '@almanac/shared';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/** The header that names the request whose SQL is recorded. */
const PROBE_HEADER = 'x-sql-probe';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Records the SQL statements one request sends, and only those. The app's background loops (outbox
 * fan-out, webhook dispatcher, sweeps, the scheduled-post publisher) share the request's pool and may
 * query at any moment, so a spy on every statement counts theirs too whenever one runs during the
 * request. Here the server handles each request inside an async context named by its probe header,
 * and a statement counts only when it is issued from that context, through however many promises
 * and callbacks: nothing a timer started is ever counted.
 */
export class RequestSql {
  private readonly context = new AsyncLocalStorage<string | undefined>();

  constructor(server: Server) {
    for (const listener of server.listeners('request') as RequestListener[]) {
      server.off('request', listener);
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const probe = req.headers[PROBE_HEADER];
        this.context.run(typeof probe === 'string' ? probe : undefined, () => listener.call(server, req, res));
      });
    }
  }

  /** The statements (their SQL text) of the request `send` makes with the header it is given. */
  async of(send: (header: { [PROBE_HEADER]: string }) => Promise<unknown>): Promise<string[]> {
    const probe = randomUUID();
    const seen: string[] = [];
    const context = this.context;
    const record = (sql: unknown) => {
      if (context.getStore() === probe) seen.push(String(sql));
    };
    // Both ways a statement reaches PostgreSQL: a query runner (transactions) and the pool's thin path.
    const query = PostgresQueryRunner.prototype.query;
    const thin = SqlClient.prototype.query;
    const spies = [
      jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args: Parameters<typeof query>) {
        record(args[0]);
        return query.apply(this, args);
      }),
      jest.spyOn(SqlClient.prototype, 'query').mockImplementation(function (this: SqlClient, ...args: Parameters<typeof thin>) {
        record(args[0]);
        return thin.apply(this, args) as ReturnType<typeof thin>;
      }),
    ];
    try {
      await send({ [PROBE_HEADER]: probe });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return seen;
  }
}
