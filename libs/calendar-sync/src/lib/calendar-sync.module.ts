import { Module } from '@nestjs/common';
import { declareEventTypes } from '@almanac/identity';
import { SchedulingModule } from '@almanac/scheduling';
import { registerErrorCodes } from '@almanac/shared';
import { CalendarIntegrationController } from './api/calendar-integration.controller';
import { CalendarSyncsController } from './api/calendar-syncs.controller';
import { SyncExternalController } from './api/sync-external.controller';
import { CalendarIntegrationService } from './application/calendar-integration.service';
import {
  CALENDAR_PROVIDERS,
  ImportExternalBookingsService,
} from './application/import-external-bookings.service';
import { CalendarIntegrationRepository } from './infrastructure/calendar-integration.repository';
import { CalendarSyncHistoryRepository } from './infrastructure/calendar-sync-history.repository';
import { IcsCalendarProvider } from './infrastructure/ics-calendar.provider';
import { CALENDAR_SYNC_ERROR_CODES } from './domain/calendar-provider';

/** This context's own error codes (the kernel's are in @almanac/shared). */
registerErrorCodes('calendar-sync', CALENDAR_SYNC_ERROR_CODES);

/** The import's summary, announced through the outbox; read with the webhooks scope, like the webhooks' own events. */
declareEventTypes('calendar-sync', { 'calendar.synced': 'webhooks:read' });

@Module({
  imports: [SchedulingModule],
  controllers: [CalendarIntegrationController, SyncExternalController, CalendarSyncsController],
  providers: [
    IcsCalendarProvider,
    {
      provide: CALENDAR_PROVIDERS,
      useFactory: (ics: IcsCalendarProvider) => [ics],
      inject: [IcsCalendarProvider],
    },
    CalendarIntegrationService,
    ImportExternalBookingsService,
    CalendarSyncHistoryRepository,
    CalendarIntegrationRepository,
  ],
})
export class CalendarSyncModule {}
