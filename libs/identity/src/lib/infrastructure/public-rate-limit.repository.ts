import { Injectable } from '@nestjs/common';
import { SqlClient } from '@almanac/shared';

/**
 * The per-client budgets of `/public/v1` (`public_rate_limits`, one row per client address, see its
 * migration). Every statement stands alone, outside any transaction, on the pool's thin path: nothing
 * holds a session between requests, so it works behind PgBouncer in transaction mode.
 */
@Injectable()
export class PublicRateLimitRepository {
  constructor(private readonly sql: SqlClient) {}

  /**
   * Decides one request of `clientKey` at `second` (Unix seconds) under `limit` requests in any 60
   * seconds: 0 when it passes (and is counted), else the seconds until one would pass.
   */
  async hit(clientKey: string, second: number, limit: number): Promise<number> {
    const { rows } = await this.sql.query<{ retry_after: number }>('SELECT public_rate_limit_hit($1, $2, $3) AS retry_after', [clientKey, second, limit]);
    return rows[0]!.retry_after;
  }

  /**
   * Deletes at most `batch` rows whose newest request is before `before` (Unix seconds), skipping rows
   * a request holds at this moment; returns how many went. The rows are found by one sequential read
   * that stops at `batch` (the table has no index but its key, see its migration) and deleted by
   * their physical address, which the lock taken while finding them keeps still.
   */
  async deleteIdleBefore(before: number, batch: number): Promise<number> {
    const { rowCount } = await this.sql.query(
      `DELETE FROM public_rate_limits WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM public_rate_limits WHERE newest_second < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [before, batch],
    );
    return rowCount;
  }
}
