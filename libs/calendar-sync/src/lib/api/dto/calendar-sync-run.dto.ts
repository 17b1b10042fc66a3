import { ApiProperty } from '@nestjs/swagger';
import type { SyncRun, SyncSummary } from '../../domain/sync-run';

const count = { type: 'integer', minimum: 0 } as const;

/** One run of the import, as the admin console shows it. */
export class CalendarSyncRunResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ format: 'date-time' }) readonly started_at!: string;
  @ApiProperty({ format: 'date-time' }) readonly finished_at!: string;
  @ApiProperty({ format: 'date-time', description: 'Start of the imported range' }) readonly start_date!: string;
  @ApiProperty({ format: 'date-time', description: 'End of the imported range (exclusive)' }) readonly end_date!: string;
  @ApiProperty({ enum: ['succeeded', 'failed'] }) readonly status!: 'succeeded' | 'failed';

  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'What a succeeded run did (the answer of POST /api/bookings/sync-external); null when it failed',
    properties: {
      synced: count,
      skipped: count,
      updated: count,
      cancelled: count,
      skipped_reasons: { type: 'object', additionalProperties: count },
    },
    required: ['synced', 'skipped', 'updated', 'cancelled', 'skipped_reasons'],
  })
  readonly summary!: SyncSummary | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'Why a failed run failed (the problem code and detail); null when it succeeded',
    properties: { code: { type: 'string', example: 'upstream_failed' }, message: { type: 'string' } },
    required: ['code', 'message'],
  })
  readonly error!: { code: string; message: string } | null;
}

export function toSyncRun(run: SyncRun): CalendarSyncRunResponse {
  return {
    id: run.id,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt.toISOString(),
    start_date: run.startDate.toISOString(),
    end_date: run.endDate.toISOString(),
    status: run.status,
    summary: run.summary,
    error: run.error,
  };
}
