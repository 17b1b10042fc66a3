import { DomainError } from '@almanac/shared/domain';

export class BookingOverlapError extends DomainError {
  constructor() {
    super('booking_overlap', 'The time overlaps a PENDING or CONFIRMED booking on the same schedule.', [
      { field: 'start_time', message: 'overlaps another PENDING or CONFIRMED booking of this schedule' },
    ]);
  }
}

export class ScheduleInUseError extends DomainError {
  constructor() {
    super(
      'schedule_in_use',
      'The schedule has PENDING or CONFIRMED bookings; cancel or complete them first.',
    );
  }
}

/** Scheduling's own error codes and their HTTP statuses (registered by SchedulingModule). */
export const SCHEDULING_ERROR_CODES = { booking_overlap: 409, schedule_in_use: 409 } as const;
