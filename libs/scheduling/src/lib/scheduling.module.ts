import { Module } from '@nestjs/common';
import { declareEventTypes, declareScopes } from '@almanac/identity';
import { registerErrorCodes } from '@almanac/shared';
import { AdminSchedulesController } from './api/admin-schedules.controller';
import { BookingSeriesController } from './api/booking-series.controller';
import { BookingsController } from './api/bookings.controller';
import {
  BookingCalendarController,
  CalendarFeedsController,
  PublicCalendarController,
} from './api/calendar-feeds.controller';
import { EventTypesController } from './api/event-types.controller';
import { PublicBookingsController } from './api/public-bookings.controller';
import { SchedulesController } from './api/schedules.controller';
import { ReservationsController } from './api/reservations.controller';
import { SlotsController } from './api/slots.controller';
import { BookingCandidatesCheck } from './application/booking-candidates';
import { BookingErasureService } from './application/booking-erasure.service';
import { BookingLimits } from './application/booking-limits.service';
import { BookingSelfService } from './application/booking-self-service.service';
import { BookingSeriesService } from './application/booking-series.service';
import { BookingsService } from './application/bookings.service';
import { CalendarFeedLimits } from './application/calendar-feed-limits';
import { CalendarFeedsService } from './application/calendar-feeds.service';
import { EventTypesService } from './application/event-types.service';
import { ExternalBookingsService } from './application/external-bookings.service';
import { SchedulesService } from './application/schedules.service';
import { ReservationsService } from './application/reservations.service';
import { SlotsService } from './application/slots.service';
import { BlockedTimeRepository } from './infrastructure/blocked-time.repository';
import { BookingErasureRepository } from './infrastructure/booking-erasure.repository';
import { BookingSeriesRepository } from './infrastructure/booking-series.repository';
import { BookingRepository } from './infrastructure/booking.repository';
import { CalendarFeedRepository } from './infrastructure/calendar-feed.repository';
import { EventTypeRepository } from './infrastructure/event-type.repository';
import { ExternalBookingRepository } from './infrastructure/external-booking.repository';
import { ManageTokenRepository } from './infrastructure/manage-token.repository';
import { ReservationRepository } from './infrastructure/reservation.repository';
import { ScheduleRepository } from './infrastructure/schedule.repository';
import { SCHEDULING_ERROR_CODES } from './domain/scheduling-errors';

/** The scopes this context's routes require (identity keeps the vocabulary of API keys). */
declareScopes('scheduling', ['bookings:read', 'bookings:write']);

/** The changes this context announces through the outbox, and the scope that reads each. */
declareEventTypes('scheduling', {
  'booking.created': 'bookings:read',
  'booking.updated': 'bookings:read',
  'booking.confirmed': 'bookings:read',
  'booking.cancelled': 'bookings:read',
  'booking.completed': 'bookings:read',
  'booking.no_show': 'bookings:read',
});

/** This context's own error codes (the kernel's are in @almanac/shared). */
registerErrorCodes('scheduling', SCHEDULING_ERROR_CODES);

/** Schedules, bookings (with their state machine) and event types; raw SQL repositories, no ORM entities. */
@Module({
  // The calendar routes come first: `/bookings/{id}/calendar.ics` must not be read as a booking id.
  controllers: [
    BookingCalendarController,
    CalendarFeedsController,
    PublicCalendarController,
    SchedulesController,
    BookingsController,
    BookingSeriesController,
    EventTypesController,
    ReservationsController,
    SlotsController,
    AdminSchedulesController,
    PublicBookingsController,
  ],
  providers: [
    ScheduleRepository,
    BookingRepository,
    EventTypeRepository,
    ExternalBookingRepository,
    SchedulesService,
    BookingsService,
    BookingLimits,
    EventTypesService,
    ExternalBookingsService,
    CalendarFeedRepository,
    CalendarFeedsService,
    CalendarFeedLimits,
    SlotsService,
    BlockedTimeRepository,
    ReservationRepository,
    ReservationsService,
    BookingErasureRepository,
    BookingErasureService,
    ManageTokenRepository,
    BookingSelfService,
    BookingSeriesRepository,
    BookingCandidatesCheck,
    BookingSeriesService,
  ],
  exports: [ExternalBookingsService, BookingErasureService],
})
export class SchedulingModule {}
