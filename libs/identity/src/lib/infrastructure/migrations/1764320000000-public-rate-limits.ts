import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-client-address budget of `/public/v1`, shared by every instance. One row per client:
 * `counts` holds 61 one-second buckets, the last one for `newest_second` (Unix seconds) and each
 * before it one second older, so the row covers the current second and the 60 before it.
 *
 * `public_rate_limit_hit(client, second, limit)` decides one request in one call: it locks the
 * client's row (creating it on the first request), slides the buckets up to `second`, and lets the
 * request through when the buckets hold fewer than `limit` requests (then counting it), returning 0;
 * otherwise it changes nothing and returns the whole seconds until enough of the oldest buckets
 * have left for a request to pass. Because the oldest bucket counts whole, no 60-second span ever
 * holds more than `limit` accepted requests; the price is that a request may wait up to one second
 * longer than an exact sliding window would make it. A `second` older than the row's newest (a clock
 * slightly behind another instance's) counts in the newest bucket, so the buckets never slide back,
 * and its wait is counted from its own second.
 *
 * UNLOGGED: counters of the last minute are not worth a WAL record per request; after a crash the
 * table starts empty, which only forgives a minute of requests. No index besides the key, so the
 * update of every request stays a HOT update (fillfactor leaves room for it on the page); the
 * sweep of stale rows reads the table sequentially, in bounded batches.
 */
export class PublicRateLimits1764320000000 implements MigrationInterface {
  name = 'PublicRateLimits1764320000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE UNLOGGED TABLE public_rate_limits (
        client_key text PRIMARY KEY,
        newest_second bigint NOT NULL,
        counts integer[] NOT NULL CONSTRAINT public_rate_limits_buckets_check CHECK (cardinality(counts) = 61)
      ) WITH (fillfactor = 70)`);
    await runner.query(`
      CREATE FUNCTION public_rate_limit_hit(client text, at_second bigint, max_requests bigint) RETURNS integer
      LANGUAGE plpgsql AS $$
      DECLARE
        newest bigint;
        buckets integer[];
        slide integer;
        lag bigint;
        total bigint;
      BEGIN
        SELECT r.newest_second, r.counts INTO newest, buckets FROM public_rate_limits r WHERE r.client_key = client FOR UPDATE;
        IF NOT FOUND THEN
          INSERT INTO public_rate_limits (client_key, newest_second, counts)
          VALUES (client, at_second, array_fill(0, ARRAY[60]) || 1)
          ON CONFLICT (client_key) DO NOTHING;
          IF FOUND THEN
            RETURN 0;
          END IF;
          -- A concurrent first request created the row: take its lock and decide as usual.
          SELECT r.newest_second, r.counts INTO newest, buckets FROM public_rate_limits r WHERE r.client_key = client FOR UPDATE;
        END IF;
        slide := least(greatest(at_second - newest, 0), 61);
        lag := greatest(newest - at_second, 0);
        IF slide > 0 THEN
          buckets := buckets[slide + 1 : 61] || array_fill(0, ARRAY[slide]);
          newest := at_second;
        END IF;
        SELECT coalesce(sum(c), 0) INTO total FROM unnest(buckets) c;
        IF total < max_requests THEN
          buckets[61] := buckets[61] + 1;
          UPDATE public_rate_limits SET newest_second = newest, counts = buckets WHERE client_key = client;
          RETURN 0;
        END IF;
        -- Refused, and not counted: bucket i leaves the window i seconds after the newest one's second.
        FOR i IN 1..61 LOOP
          total := total - buckets[i];
          IF total < max_requests THEN
            RETURN i + lag;
          END IF;
        END LOOP;
        RETURN 61 + lag;
      END
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP FUNCTION public_rate_limit_hit(text, bigint, bigint)');
    await runner.query('DROP TABLE public_rate_limits');
  }
}
