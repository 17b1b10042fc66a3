import { Module } from '@nestjs/common';
import { BookingsController } from './api/bookings.controller';
import { EventTypesController } from './api/event-types.controller';
import { SchedulesController } from './api/schedules.controller';
import { BookingsService } from './application/bookings.service';
import { EventTypesService } from './application/event-types.service';
import { ExternalBookingsService } from './application/external-bookings.service';
import { SchedulesService } from './application/schedules.service';
import { BookingRepository } from './infrastructure/booking.repository';
import { EventTypeRepository } from './infrastructure/event-type.repository';
import { ExternalBookingRepository } from './infrastructure/external-booking.repository';
import { ScheduleRepository } from './infrastructure/schedule.repository';

/** Schedules, bookings (with their state machine) and event types; raw SQL repositories, no ORM entities. */
@Module({
  controllers: [SchedulesController, BookingsController, EventTypesController],
  providers: [
    ScheduleRepository,
    BookingRepository,
    EventTypeRepository,
    ExternalBookingRepository,
    SchedulesService,
    BookingsService,
    EventTypesService,
    ExternalBookingsService,
  ],
  exports: [ExternalBookingsService],
})
export class SchedulingModule {}
