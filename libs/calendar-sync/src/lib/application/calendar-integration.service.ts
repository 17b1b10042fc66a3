import { Injectable } from '@nestjs/common';
import { ExternalBookingsService } from '@almanac/scheduling';
import { AuditLog, AuditSource, Clock, InvalidReferenceError, ListTotal, newId, NotFoundError, Page, Transactions } from '@almanac/shared';
import { CalendarIntegration } from '../domain/calendar-integration';
import { SyncRun } from '../domain/sync-run';
import { CalendarIntegrationRepository } from '../infrastructure/calendar-integration.repository';
import { CalendarSyncHistoryRepository } from '../infrastructure/calendar-sync-history.repository';

export interface IntegrationInput {
  provider: 'ics';
  url: string;
  scheduleId: string;
  name?: string;
}

@Injectable()
export class CalendarIntegrationService {
  constructor(
    private readonly integrations: CalendarIntegrationRepository,
    private readonly runs: CalendarSyncHistoryRepository,
    private readonly bookings: ExternalBookingsService,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
    private readonly audit: AuditLog,
  ) {}

  async get(organizationId: string): Promise<CalendarIntegration | null> {
    return this.integrations.find(organizationId);
  }

  /** Creates or replaces the organization's integration and returns it; the audit log records it in the same transaction. */
  async put(organizationId: string, input: IntegrationInput, source: AuditSource): Promise<CalendarIntegration> {
    if (!(await this.bookings.scheduleExists(organizationId, input.scheduleId))) {
      throw new InvalidReferenceError('schedule_id');
    }
    return this.transactions.run(async () => {
      const integration = await this.integrations.upsert(
        {
          id: newId(),
          organizationId,
          provider: input.provider,
          url: input.url,
          scheduleId: input.scheduleId,
          name: input.name ?? 'External calendar',
        },
        this.clock.now(),
      );
      await this.audit.record(this.transactions.manager(), organizationId, source, 'calendar_integration.set', { type: 'calendar_integration', id: integration.id });
      return integration;
    });
  }

  async remove(organizationId: string, source: AuditSource): Promise<string> {
    return this.transactions.run(async () => {
      const id = await this.integrations.remove(organizationId);
      if (id === null) throw new NotFoundError('Calendar integration');
      await this.audit.record(this.transactions.manager(), organizationId, source, 'calendar_integration.removed', { type: 'calendar_integration', id });
      return id;
    });
  }

  /** The import's runs, newest first. */
  async history(organizationId: string, page: Page): Promise<{ items: SyncRun[]; total: ListTotal }> {
    return this.runs.list(organizationId, page);
  }
}
