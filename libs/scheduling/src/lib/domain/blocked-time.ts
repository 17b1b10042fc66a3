/**
 * What can hold a schedule's time: a PENDING or CONFIRMED booking, an unexpired reservation, a
 * published event. The database keeps all of them under one exclusion constraint.
 */
export type BlockKind = 'booking' | 'reservation' | 'event';

/** When several records hold one time, a booking is named first, then a reservation, then an event. */
export const BLOCK_KINDS: readonly BlockKind[] = ['booking', 'reservation', 'event'];

/** The record holding a time. */
export interface BlockingRecord {
  readonly kind: BlockKind;
  readonly id: string;
}
