import { Injectable } from '@nestjs/common';
import { IMPORTED_TEXT_LIMITS } from '@almanac/scheduling';
import { AppConfig, FEED_FETCH_DEFAULTS, FetchFailedError, safeFetchText } from '@almanac/shared';
import { CalendarProvider, IntegrationSource, UpstreamFailedError } from '../domain/calendar-provider';
import { FeedOccurrence } from '../domain/feed-occurrence';
import { FeedParseError } from './ics-parser';
import { parseIcsFeedOffThread } from './ics-parse-runner';

/** iCalendar (RFC 5545) feeds over http(s): Google secret iCal addresses, Outlook/iCloud published calendars, CalDAV exports. */
@Injectable()
export class IcsCalendarProvider implements CalendarProvider {
  readonly provider = 'ics';

  constructor(private readonly config: AppConfig) {}

  async fetchOccurrences(source: IntegrationSource, range: { start: Date; end: Date }): Promise<FeedOccurrence[]> {
    let text: string;
    try {
      text = await safeFetchText(source.url, { ...FEED_FETCH_DEFAULTS, allowPrivateHosts: this.config.calendarAllowPrivateHosts });
    } catch (error) {
      if (error instanceof FetchFailedError) throw new UpstreamFailedError(error.message);
      throw error;
    }
    try {
      // Text comes back cut to what a booking keeps: nothing longer crosses to this thread.
      return await parseIcsFeedOffThread(text, range.start, range.end, IMPORTED_TEXT_LIMITS);
    } catch (error) {
      if (error instanceof FeedParseError) throw new UpstreamFailedError(error.message);
      throw error;
    }
  }
}
