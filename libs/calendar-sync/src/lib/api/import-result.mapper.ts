import type { SkipReason } from '../domain/feed-occurrence';
import type { ImportOutcome } from '../domain/sync-run';

/** The answer of POST /api/bookings/sync-external, and the data of its `calendar.synced` event. */
export interface ImportResult {
  success: true;
  synced: number;
  skipped: number;
  updated: number;
  cancelled: number;
  skipped_reasons: Record<SkipReason, number>;
}

export function toImportResult(outcome: ImportOutcome): ImportResult {
  return {
    success: true,
    synced: outcome.synced,
    skipped: outcome.skipped,
    updated: outcome.updated,
    cancelled: outcome.cancelled,
    skipped_reasons: { ...outcome.skippedReasons },
  };
}
