import { Injectable } from '@nestjs/common';
import { ExternalBookingsService } from '@almanac/scheduling';
import { Clock, InvalidReferenceError, newId, NotFoundError } from '@almanac/shared';
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
  ) {}

  async get(organizationId: string): Promise<CalendarIntegration | null> {
    return this.integrations.find(organizationId);
  }

  /** Creates or replaces the organization's integration and returns it (one statement). */
  async put(organizationId: string, input: IntegrationInput): Promise<CalendarIntegration> {
    if (!(await this.bookings.scheduleExists(organizationId, input.scheduleId))) {
      throw new InvalidReferenceError('schedule_id');
    }
    return this.integrations.upsert(
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
  }

  async remove(organizationId: string): Promise<string> {
    const id = await this.integrations.remove(organizationId);
    if (id === null) throw new NotFoundError('Calendar integration');
    return id;
  }

  /** The import's runs, newest first. */
  async history(organizationId: string, page: { limit: number; offset: number }): Promise<{ items: SyncRun[]; total: number }> {
    return this.runs.list(organizationId, page);
  }
}
