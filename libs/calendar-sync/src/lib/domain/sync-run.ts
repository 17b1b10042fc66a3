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
