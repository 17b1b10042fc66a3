import type { TestApp } from './test-app';

/**
 * Waits until the change feed may show every event the organization has so far. The feed only shows
 * events below the oldest transaction still running in the whole PostgreSQL cluster
 * (`pg_snapshot_xmin`), and the test run shares one cluster between Jest workers: another worker's
 * long transaction delays what this one may read. Waits for that condition (checked in the
 * database, every 10 ms, for at most 30 s), never for a fixed time.
 */
export async function changeFeedCaughtUp(t: TestApp, organizationId: string): Promise<void> {
  for (let attempt = 0; attempt < 3000; attempt++) {
    const [row] = await t.query<{ visible: boolean | null }>(
      'SELECT bool_and(tx_id < pg_snapshot_xmin(pg_current_snapshot())) AS visible FROM outbox_events WHERE organization_id = $1',
      [organizationId],
    );
    if (row?.visible !== false) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the change feed did not catch up within 30 s');
}
