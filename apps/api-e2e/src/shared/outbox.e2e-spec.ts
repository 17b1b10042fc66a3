import { Outbox } from '@almanac/shared';
import { createTestApp, TestApp } from '../support/test-app';

describe('Outbox (the domain-event port)', () => {
  let t: TestApp;
  let outbox: Outbox;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    outbox = t.app.get(Outbox);
    orgId = (await t.tenant()).orgId;
  });
  afterAll(() => t.close());

  const event = (type: string) => ({
    type,
    organizationId: orgId,
    data: { id: type },
    occurredAt: new Date('2026-01-02T03:04:05.000Z'),
  });

  it('records events in the transaction of the change, with the writing transaction id', async () => {
    const txId = await t.dataSource.transaction(async (em) => {
      await outbox.record(em, event('a.created'), { ...event('a.updated'), previousStatus: 'PENDING' });
      const [row] = (await em.query('SELECT pg_current_xact_id()::text AS id')) as Array<{ id: string }>;
      return row.id;
    });
    const rows = await t.query<{
      type: string;
      tx_id: string;
      previous_status: string | null;
      data: unknown;
      created_at: Date;
    }>(
      `SELECT type, tx_id::text, previous_status, data, created_at FROM outbox_events WHERE organization_id = $1 ORDER BY seq`,
      [orgId],
    );
    expect(rows.map((r) => [r.type, r.previous_status, r.tx_id])).toEqual([
      ['a.created', null, txId],
      ['a.updated', 'PENDING', txId],
    ]);
    expect(rows[0].data).toEqual({ id: 'a.created' });
    expect(rows[0].created_at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('records nothing when the change rolls back', async () => {
    await expect(
      t.dataSource.transaction(async (em) => {
        await outbox.record(em, event('b.created'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const rows = await t.query(
      `SELECT 1 FROM outbox_events WHERE organization_id = $1 AND type = 'b.created'`,
      [orgId],
    );
    expect(rows).toHaveLength(0);
  });
});
