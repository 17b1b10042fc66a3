import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SchedulingModule } from '@almanac/scheduling';
import { CalendarIntegrationController } from './api/calendar-integration.controller';
import { CalendarSyncsController } from './api/calendar-syncs.controller';
import { SyncExternalController } from './api/sync-external.controller';
import { CalendarIntegrationService } from './application/calendar-integration.service';
import { CALENDAR_PROVIDERS, ImportExternalBookingsService } from './application/import-external-bookings.service';
import { CalendarIntegrationOrmEntity } from './infrastructure/calendar-integration.orm-entity';
import { CalendarSyncHistoryRepository } from './infrastructure/calendar-sync-history.repository';
import { IcsCalendarProvider } from './infrastructure/ics-calendar.provider';

@Module({
  imports: [TypeOrmModule.forFeature([CalendarIntegrationOrmEntity]), SchedulingModule],
  controllers: [CalendarIntegrationController, SyncExternalController, CalendarSyncsController],
  providers: [
    IcsCalendarProvider,
    { provide: CALENDAR_PROVIDERS, useFactory: (ics: IcsCalendarProvider) => [ics], inject: [IcsCalendarProvider] },
    CalendarIntegrationService,
    ImportExternalBookingsService,
    CalendarSyncHistoryRepository,
  ],
})
export class CalendarSyncModule {}
