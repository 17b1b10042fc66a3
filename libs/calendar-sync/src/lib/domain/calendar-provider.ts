import { DomainError } from '@almanac/shared/domain';
import { FeedOccurrence } from './feed-occurrence';

export interface IntegrationSource {
  readonly provider: string;
  readonly url: string;
}

/** A source of external calendar events; `ics` is the one built in. */
export interface CalendarProvider {
  readonly provider: string;
  /** Every occurrence starting in [start, end); throws UpstreamFailedError when the source fails. */
  fetchOccurrences(source: IntegrationSource, range: { start: Date; end: Date }): Promise<FeedOccurrence[]>;
}

export class UpstreamFailedError extends DomainError {
  constructor(reason: string) {
    super('upstream_failed', `The external calendar could not be read: ${reason}.`);
  }
}

export class IntegrationNotConfiguredError extends DomainError {
  constructor() {
    super('integration_not_configured', 'This organization has no calendar integration; configure one first.');
  }
}

export class SyncInProgressError extends DomainError {
  constructor() {
    super('sync_in_progress', 'Another import for this organization is running.');
  }
}

/** Calendar-sync's own error codes and their HTTP statuses (registered by CalendarSyncModule). */
export const CALENDAR_SYNC_ERROR_CODES = { integration_not_configured: 422, sync_in_progress: 409 } as const;
