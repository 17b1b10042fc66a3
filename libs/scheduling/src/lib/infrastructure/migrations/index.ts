/** This context's migrations, one line each (TypeORM runs every context's in the order of their timestamps). */
export { SchedulingInit1763700001000 } from './1763700001000-scheduling-init';
export { ImportedBookingLink1764010000100 } from './1764010000100-imported-booking-link';
export { CalendarFeeds1764050000000 } from './1764050000000-calendar-feeds';
export { SchedulingDistributionKeys1764070000100 } from './1764070000100-distribution-keys';
export { SchedulingAvailability1764150001500 } from './1764150001500-availability';
export { FeedNearestBookings1764300000800 } from './1764300000800-feed-nearest-bookings';
export { SchedulingBusyTimesFromIndex1764330000000 } from './1764330000000-busy-times-from-index';
export { SchedulingBlockedTimes1764400000000 } from './1764400000000-blocked-times';
export { SchedulingEventsHoldTime1764400000300 } from './1764400000300-events-hold-time';
export { SchedulingBookingSelfService1764400000500 } from './1764400000500-booking-self-service';
export { SchedulingBookingLimits1764400000700 } from './1764400000700-booking-limits';
export { BookingSeries1764400002100 } from './1764400002100-booking-series';
