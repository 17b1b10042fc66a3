import type { MigrationClass } from '@almanac/shared';
import { SchedulingInit1763700001000 } from './lib/infrastructure/migrations/1763700001000-scheduling-init';
import { ImportedBookingLink1764010000100 } from './lib/infrastructure/migrations/1764010000100-imported-booking-link';
import { CalendarFeeds1764050000000 } from './lib/infrastructure/migrations/1764050000000-calendar-feeds';
import { SchedulingDistributionKeys1764070000100 } from './lib/infrastructure/migrations/1764070000100-distribution-keys';
import { SchedulingAvailability1764150001500 } from './lib/infrastructure/migrations/1764150001500-availability';
import { FeedNearestBookings1764300000800 } from './lib/infrastructure/migrations/1764300000800-feed-nearest-bookings';
import { SchedulingBusyTimesFromIndex1764330000000 } from './lib/infrastructure/migrations/1764330000000-busy-times-from-index';

export { SchedulingModule } from './lib/scheduling.module';
/** For calendar-sync: imports occurrences of an external calendar as bookings. */
export { ExternalBookingsService, type ExternalSyncOutcome } from './lib/application/external-bookings.service';
export { IMPORTED_TEXT_LIMITS, ImportedBooking, uniqueImportedBookings } from './lib/domain/imported-booking';
/** For the operators' erasure of a person's data. */
export { BookingErasureService } from './lib/application/booking-erasure.service';
export { SchedulingInit1763700001000 };

/** This context's migrations, in order; the app runs them with every other context's. */
export const schedulingMigrations: MigrationClass[] = [
  SchedulingInit1763700001000,
  ImportedBookingLink1764010000100,
  CalendarFeeds1764050000000,
  SchedulingDistributionKeys1764070000100,
  SchedulingAvailability1764150001500,
  FeedNearestBookings1764300000800,
  SchedulingBusyTimesFromIndex1764330000000,
];
