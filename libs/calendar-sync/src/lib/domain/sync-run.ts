import type { SkipReason } from './feed-occurrence';

export interface SyncSummary {
  synced: number;
  skipped: number;
  updated: number;
  cancelled: number;
  skipped_reasons: Record<string, number>;
}

/** One run of the import, as kept in its history. */
export interface SyncRun {
  id: string;
  organizationId: string;
  startedAt: Date;
  finishedAt: Date;
  startDate: Date;
  endDate: Date;
  status: 'succeeded' | 'failed';
  summary: SyncSummary | null;
  error: { code: string; message: string } | null;
}

/** What one import did: bookings created, updated and cancelled, and the occurrences skipped, by reason. */
export interface ImportOutcome {
  synced: number;
  /** The sum of `skippedReasons`. */
  skipped: number;
  updated: number;
  cancelled: number;
  skippedReasons: Record<SkipReason, number>;
}

/** The answer of an import, and the data of its `calendar.synced` event. */
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
