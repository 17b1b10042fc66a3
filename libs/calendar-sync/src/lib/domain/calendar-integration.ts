/** An organization's external calendar integration (one per organization). */
export interface CalendarIntegration {
  readonly id: string;
  readonly organizationId: string;
  readonly provider: string;
  /** A secret: never leaves the service unmasked. */
  readonly url: string;
  readonly scheduleId: string;
  /** Also the attendee of imported bookings whose occurrence names nobody. */
  readonly name: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly lastSyncedAt: Date | null;
}

/**
 * How long a started import keeps others out before its claim counts as abandoned (an instance that
 * died mid-run): longer than the feed's fetch (10 s), its parse and the import's transaction together.
 */
export const IMPORT_CLAIM_SECONDS = 120;
