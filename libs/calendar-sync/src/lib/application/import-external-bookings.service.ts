import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ExternalBookingsService, ExternalOccurrence } from '@almanac/scheduling';
import { Clock, DomainError, newId, Outbox } from '@almanac/shared';
import { DataSource } from 'typeorm';
import {
  CalendarProvider,
  IntegrationNotConfiguredError,
  SyncInProgressError,
  UpstreamFailedError,
} from '../domain/calendar-provider';
import { bookingAttendee, emptySkipCounts, feedSkipReason, SkipReason } from '../domain/feed-occurrence';
import { resolveSyncRange } from '../domain/sync-range';
import { CalendarIntegrationOrmEntity } from '../infrastructure/calendar-integration.orm-entity';
import { CalendarSyncHistoryRepository } from '../infrastructure/calendar-sync-history.repository';
import { assertOwnOrganization } from './calendar-integration.service';

export const CALENDAR_PROVIDERS = Symbol('CALENDAR_PROVIDERS');

export interface ImportResult {
  success: true;
  synced: number;
  skipped: number;
  updated: number;
  cancelled: number;
  skipped_reasons: Record<SkipReason, number>;
}

/**
 * Imports an organization's external calendar into its integration's schedule: fetch and expand the
 * feed, then create, update and cancel bookings in ONE transaction. One import per organization at a
 * time (a session-level advisory lock held from before the fetch until the commit).
 */
@Injectable()
export class ImportExternalBookingsService {
  private readonly logger = new Logger('CalendarImport');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bookings: ExternalBookingsService,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    @Inject(CALENDAR_PROVIDERS) private readonly providers: CalendarProvider[],
    private readonly history: CalendarSyncHistoryRepository,
  ) {}

  async run(admin: { organizationId: string }, input: { organizationId: string; startDate: Date | null; endDate: Date | null }): Promise<ImportResult> {
    assertOwnOrganization(admin.organizationId, input.organizationId);
    const range = resolveSyncRange(this.clock.now(), input.startDate, input.endDate);
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    const lockKey = `calendar-sync:${input.organizationId}`;
    try {
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [lockKey])) as [{ locked: boolean }];
      if (!locked) throw new SyncInProgressError();
      const runId = newId();
      const startedAt = this.clock.now();
      try {
        const integration = await runner.manager.findOneBy(CalendarIntegrationOrmEntity, { organizationId: input.organizationId });
        if (!integration) throw new IntegrationNotConfiguredError();
        const provider = this.providers.find((p) => p.provider === integration.provider);
        if (!provider) throw new UpstreamFailedError(`provider ${integration.provider} is not available`);
        const started = Date.now();
        const feed = await provider.fetchOccurrences(integration, range);

        const skipped = emptySkipCounts();
        const importable: ExternalOccurrence[] = [];
        const seen = new Set<string>();
        for (const occurrence of feed) {
          const reason = feedSkipReason(occurrence);
          if (reason) {
            skipped[reason]++;
            continue;
          }
          const recurrenceId = occurrence.recurrenceId?.toISOString() ?? null;
          const key = `${occurrence.uid}\u0000${recurrenceId ?? ''}`;
          if (seen.has(key)) {
            skipped.invalid++; // the same occurrence twice in one feed
            continue;
          }
          seen.add(key);
          const attendee = bookingAttendee(occurrence, integration.name);
          importable.push({
            externalUid: occurrence.uid,
            recurrenceId,
            title: (occurrence.summary ?? '(no title)').slice(0, 300),
            location: occurrence.location?.slice(0, 300) ?? null,
            start: occurrence.start,
            end: occurrence.end,
            attendeeName: attendee.name.slice(0, 300),
            attendeeEmail: attendee.email && attendee.email.length <= 320 ? attendee.email : null,
          });
        }

        await runner.startTransaction();
        try {
          const outcome = await this.bookings.syncOccurrences(runner.manager, {
            organizationId: input.organizationId,
            scheduleId: integration.scheduleId,
            rangeStart: range.start,
            rangeEnd: range.end,
            occurrences: importable,
          });
          await runner.query('UPDATE calendar_integrations SET last_synced_at = $2 WHERE organization_id = $3 AND id = $1', [
            integration.id,
            this.clock.now(),
            input.organizationId,
          ]);
          skipped.duplicate += outcome.duplicate;
          skipped.conflict += outcome.conflict;
          const result: ImportResult = {
            success: true,
            synced: outcome.synced,
            skipped: Object.values(skipped).reduce((sum, n) => sum + n, 0),
            updated: outcome.updated,
            cancelled: outcome.cancelled,
            skipped_reasons: skipped,
          };
          // The import's summary is announced with the bookings it changed, in the same transaction.
          await this.outbox.record(runner.manager, {
            type: 'calendar.synced',
            organizationId: input.organizationId,
            data: {
              schedule_id: integration.scheduleId,
              start_date: range.start.toISOString(),
              end_date: range.end.toISOString(),
              ...result,
            },
            occurredAt: this.clock.now(),
          });
          await this.history.record(runner.manager, {
            id: runId,
            organizationId: input.organizationId,
            startedAt,
            finishedAt: this.clock.now(),
            startDate: range.start,
            endDate: range.end,
            status: 'succeeded',
            summary: { synced: result.synced, skipped: result.skipped, updated: result.updated, cancelled: result.cancelled, skipped_reasons: result.skipped_reasons },
            error: null,
          });
          await runner.commitTransaction();
          this.logger.log({ organization_id: input.organizationId, ms: Date.now() - started, ...result }, 'calendar import finished');
          return result;
        } catch (error) {
          await runner.rollbackTransaction();
          throw error;
        }
      } catch (error) {
        // A failed run is kept too, outside the rolled-back transaction; only a domain error's own
        // words are stored (never a driver's or a stack).
        const known = error instanceof DomainError;
        await this.history
          .record(runner.manager, {
            id: runId,
            organizationId: input.organizationId,
            startedAt,
            finishedAt: this.clock.now(),
            startDate: range.start,
            endDate: range.end,
            status: 'failed',
            summary: null,
            error: known ? { code: error.code, message: error.message } : { code: 'internal', message: 'The import failed unexpectedly.' },
          })
          .catch((recordError: unknown) => this.logger.error({ organization_id: input.organizationId, err: recordError }, 'could not record a failed import'));
        throw error;
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]);
      }
    } finally {
      await runner.release();
    }
  }
}
