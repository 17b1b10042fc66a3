import { Inject, Injectable, Logger } from '@nestjs/common';
import { assertOwnOrganization } from '@almanac/identity';
import { ExternalBookingsService, ImportedBooking, uniqueImportedBookings } from '@almanac/scheduling';
import { AuditLog, AuditSource, Clock, DomainError, inTurns, newId, Outbox, Transactions } from '@almanac/shared';
import {
  CalendarProvider,
  IntegrationNotConfiguredError,
  SyncInProgressError,
  UpstreamFailedError,
} from '../domain/calendar-provider';
import { CalendarIntegration } from '../domain/calendar-integration';
import { emptySkipCounts, feedSkipReason, SkipReason } from '../domain/feed-occurrence';
import { resolveSyncRange } from '../domain/sync-range';
import { ImportOutcome, SyncRun, toImportResult } from '../domain/sync-run';
import { calendarSynced } from '../domain/calendar-sync-announcements';
import { CalendarIntegrationRepository } from '../infrastructure/calendar-integration.repository';
import { CalendarSyncHistoryRepository } from '../infrastructure/calendar-sync-history.repository';

export const CALENDAR_PROVIDERS = Symbol('CALENDAR_PROVIDERS');

type Range = { start: Date; end: Date };

/**
 * Imports an organization's external calendar into its integration's schedule. One import per
 * organization at a time, without holding a connection while the feed is read:
 * 1. one statement claims the run on the integration's row (and reads the integration); a live claim
 *    of another run answers 409 `sync_in_progress`;
 * 2. the feed is fetched and parsed, no connection held;
 * 3. one transaction (`Transactions.run`): the organization's transaction-scoped advisory try-lock
 *    (409 when taken: only possible after an abandoned claim expired), scheduling's
 *    `reconcileImported` (which joins the transaction), `last_synced_at` (ending the claim), the
 *    history row and `calendar.synced`.
 */
@Injectable()
export class ImportExternalBookingsService {
  private readonly logger = new Logger('CalendarImport');

  constructor(
    private readonly transactions: Transactions,
    private readonly integrations: CalendarIntegrationRepository,
    private readonly bookings: ExternalBookingsService,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    @Inject(CALENDAR_PROVIDERS) private readonly providers: CalendarProvider[],
    private readonly history: CalendarSyncHistoryRepository,
    private readonly audit: AuditLog,
  ) {}

  /** Every run, succeeded or failed, is recorded in the audit log with its history record (`calendar.import_ran`). */
  async run(
    admin: { organizationId: string },
    input: { organizationId: string; startDate: Date | null; endDate: Date | null },
    source: AuditSource,
  ): Promise<ImportOutcome> {
    assertOwnOrganization(admin, input.organizationId);
    const organizationId = input.organizationId;
    const range = resolveSyncRange(this.clock.now(), input.startDate, input.endDate);
    const claimId = newId();
    const claim = await this.integrations.claimImport(organizationId, claimId);
    if (claim.status === 'busy') throw new SyncInProgressError();
    const runId = newId();
    const startedAt = this.clock.now();
    try {
      if (claim.status === 'not_configured') throw new IntegrationNotConfiguredError();
      const integration = claim.integration;
      const started = Date.now();
      const { items, skipped } = await this.readFeed(integration, range);
      const fetchMs = Date.now() - started;
      const writeStarted = Date.now();
      const result = await this.transactions.run(async () => {
        if (!(await this.integrations.tryLockImport(organizationId))) throw new SyncInProgressError();
        const outcome = await this.bookings.reconcileImported(organizationId, integration.scheduleId, range, items);
        await this.integrations.markSynced(organizationId, integration.id, claimId, this.clock.now());
        // A new object, not the feed's counts changed in place: a transaction that meets a deadlock
        // runs again whole, and must find them as the feed gave them.
        const reasons = { ...skipped, duplicate: skipped.duplicate + outcome.duplicate, conflict: skipped.conflict + outcome.conflict };
        const summary: ImportOutcome = {
          synced: outcome.synced,
          skipped: Object.values(reasons).reduce((sum, n) => sum + n, 0),
          updated: outcome.updated,
          cancelled: outcome.cancelled,
          skippedReasons: reasons,
        };
        const answer = toImportResult(summary);
        // The import's summary is announced with the bookings it changed, in the same transaction.
        await this.outbox.announce(calendarSynced(organizationId, integration.scheduleId, range, answer, this.clock.now()));
        // The stored summary is the import's answer without its `success` flag.
        const { success: _success, ...stored } = answer;
        await this.history.record(this.runRecord(organizationId, runId, startedAt, range, { status: 'succeeded', summary: stored, error: null }));
        await this.audit.record(this.transactions.manager(), organizationId, source, 'calendar.import_ran', { type: 'calendar_sync', id: runId });
        return summary;
      });
      this.logger.log(
        { organization_id: organizationId, ms: Date.now() - started, fetch_ms: fetchMs, transaction_ms: Date.now() - writeStarted, ...toImportResult(result) },
        'calendar import finished',
      );
      return result;
    } catch (error) {
      if (claim.status === 'claimed') {
        await this.integrations
          .releaseImport(organizationId, claimId)
          .catch((releaseError: unknown) => this.logger.error({ organization_id: organizationId, err: releaseError }, 'could not release an import claim'));
      }
      // Refused (another run holds the lock): not a run. A failed run is kept too, outside the
      // rolled-back transaction; only a domain error's own words are stored (never a driver's or a stack).
      if (!(error instanceof SyncInProgressError)) await this.recordFailure(organizationId, runId, startedAt, range, error, source);
      throw error;
    }
  }

  /** The feed's importable occurrences as scheduling's `ImportedBooking`s, and why the others are skipped. */
  private async readFeed(integration: CalendarIntegration, range: Range): Promise<{ items: ImportedBooking[]; skipped: Record<SkipReason, number> }> {
    const provider = this.providers.find((p) => p.provider === integration.provider);
    if (!provider) throw new UpstreamFailedError(`provider ${integration.provider} is not available`);
    const feed = await provider.fetchOccurrences(integration, range);
    const skipped = emptySkipCounts();
    const offered: ImportedBooking[] = [];
    // Up to 50,000 occurrences: in slices, so that other requests are served meanwhile.
    await inTurns(feed, (occurrence) => {
      const reason = feedSkipReason(occurrence);
      if (reason) {
        skipped[reason]++;
        return;
      }
      offered.push(
        ImportedBooking.from(
          {
            uid: occurrence.uid,
            recurrenceId: occurrence.recurrenceId,
            title: occurrence.summary,
            location: occurrence.location,
            start: occurrence.start,
            end: occurrence.end,
            contact: occurrence.contact,
          },
          integration.name,
        ),
      );
    });
    // The same occurrence twice in one feed is a fault of the feed, reported as `invalid`.
    const { unique, repeated } = uniqueImportedBookings(offered);
    skipped.invalid += repeated;
    return { items: unique, skipped };
  }

  /** The history record of a run that ends now; only its status, summary and error differ. */
  private runRecord(
    organizationId: string,
    runId: string,
    startedAt: Date,
    range: Range,
    end: Pick<SyncRun, 'status' | 'summary' | 'error'>,
  ): SyncRun {
    return { id: runId, organizationId, startedAt, finishedAt: this.clock.now(), startDate: range.start, endDate: range.end, ...end };
  }

  private async recordFailure(organizationId: string, runId: string, startedAt: Date, range: Range, error: unknown, source: AuditSource): Promise<void> {
    const known = error instanceof DomainError;
    await this.transactions
      .run(async () => {
        await this.history.record(
          this.runRecord(organizationId, runId, startedAt, range, {
            status: 'failed',
            summary: null,
            error: known ? { code: error.code, message: error.message } : { code: 'internal', message: 'The import failed unexpectedly.' },
          }),
        );
        await this.audit.record(this.transactions.manager(), organizationId, source, 'calendar.import_ran', { type: 'calendar_sync', id: runId });
      })
      .catch((recordError: unknown) => this.logger.error({ organization_id: organizationId, err: recordError }, 'could not record a failed import'));
  }
}
