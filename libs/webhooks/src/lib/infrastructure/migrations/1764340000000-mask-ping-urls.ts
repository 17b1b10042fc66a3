import { maskSecretUrl } from '@almanac/shared';
import { MigrationInterface, QueryRunner } from 'typeorm';

const BATCH = 1000;

/**
 * `webhook.ping` events recorded the endpoint's full URL, credentials and tokens included, and are
 * kept 30 days and shown in the change feed: mask it as every answer now does (the endpoint keeps
 * its full URL for delivery). Pings are made by hand, so there are few; read in batches all the same.
 */
export class WebhooksMaskPingUrls1764340000000 implements MigrationInterface {
  name = 'WebhooksMaskPingUrls1764340000000';

  async up(runner: QueryRunner): Promise<void> {
    let after: { organization_id: string; id: string } | undefined;
    for (;;) {
      const rows = (await runner.query(
        `SELECT organization_id, id, data->>'url' AS url FROM outbox_events
          WHERE type = 'webhook.ping' AND jsonb_typeof(data->'url') = 'string'
            AND ($1::uuid IS NULL OR (organization_id, id) > ($1::uuid, $2::uuid))
          ORDER BY organization_id, id LIMIT ${BATCH}`,
        [after?.organization_id ?? null, after?.id ?? null],
      )) as Array<{ organization_id: string; id: string; url: string }>;
      for (const row of rows) {
        const masked = maskSecretUrl(row.url);
        if (masked === row.url) continue;
        await runner.query(
          `UPDATE outbox_events SET data = jsonb_set(data, '{url}', to_jsonb($3::text)) WHERE organization_id = $1 AND id = $2`,
          [row.organization_id, row.id, masked],
        );
      }
      if (rows.length < BATCH) return;
      after = rows.at(-1);
    }
  }

  async down(): Promise<void> {
    // The full URLs are gone; the masked ones stay.
  }
}
