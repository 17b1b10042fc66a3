import type { MigrationClass } from '@almanac/shared';
import * as migrations from './lib/infrastructure/migrations';

export { SchedulingModule } from './lib/scheduling.module';
/** For calendar-sync: imports occurrences of an external calendar as bookings. */
export { ExternalBookingsService, type ExternalSyncOutcome } from './lib/application/external-bookings.service';
export { IMPORTED_TEXT_LIMITS, ImportedBooking, uniqueImportedBookings } from './lib/domain/imported-booking';
/** Slot holds; its `sweep` deletes expired ones (run by the app on the request path, and by tests). */
export { ReservationsService } from './lib/application/reservations.service';
/** For the operators' erasure of a person's data. */
export { BookingErasureService } from './lib/application/booking-erasure.service';

/** This context's migrations; the app runs them with every other context's. */
export const schedulingMigrations: MigrationClass[] = Object.values(migrations);
