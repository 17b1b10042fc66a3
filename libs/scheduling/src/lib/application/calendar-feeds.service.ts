import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, findBySecretToken, NotFoundError, RenderedCache, secretHash, secretToken, secretTokenPattern } from '@almanac/shared';
import { createHash } from 'node:crypto';
import { renderCalendar } from '../domain/icalendar';
import { CalendarFeedRepository } from '../infrastructure/calendar-feed.repository';
import { ScheduleRepository } from '../infrastructure/schedule.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A feed shows the bookings starting from 30 days ago to 366 days ahead … */
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 366;
/**
 * … at most this many: when the window holds more, the ones starting nearest to now (ties: the
 * earlier). A 40,000-booking feed was 12 MB and 0.7 s of rendering; 2,000 are ~0.6 MB.
 */
export const FEED_MAX_EVENTS = 2_000;
/** Rendered feeds kept in memory per process, by ETag (see RenderedCache). */
const RENDERED_FEEDS_MAX_BYTES = 32 * 1024 * 1024;
const FEED_TOKEN_PATTERN = secretTokenPattern();

export interface RenderedFeed {
  etag: string;
  lastModified: Date;
  /** Read and rendered only when asked for (a 304 never renders), and then once per ETag while it stays in memory. */
  body: () => Promise<Buffer>;
}

/** Subscribable iCalendar feeds of a schedule's bookings, and one booking as a .ics. */
@Injectable()
export class CalendarFeedsService {
  private readonly rendered = new RenderedCache(RENDERED_FEEDS_MAX_BYTES);

  constructor(
    private readonly feeds: CalendarFeedRepository,
    private readonly schedules: ScheduleRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** A new secret address (32 base62 characters from the CSPRNG; only its SHA-256 is kept). */
  async create(organizationId: string, scheduleId: string): Promise<{ url: string; createdAt: Date }> {
    await this.scheduleOrFail(organizationId, scheduleId);
    const token = secretToken(32);
    const createdAt = await this.feeds.replaceToken(organizationId, scheduleId, secretHash(token), this.clock.now());
    return { url: `${this.config.appUrl}/calendar/${token}.ics`, createdAt };
  }

  async get(
    organizationId: string,
    scheduleId: string,
  ): Promise<{ createdAt: Date; lastFetchedAt: Date | null }> {
    await this.scheduleOrFail(organizationId, scheduleId);
    const feed = await this.feeds.find(organizationId, scheduleId);
    if (!feed) throw new NotFoundError('Calendar feed');
    return feed;
  }

  async delete(organizationId: string, scheduleId: string): Promise<void> {
    if (!(await this.feeds.delete(organizationId, scheduleId)))
      throw new NotFoundError('Calendar feed');
  }

  /**
   * The feed behind a token: its ETag and Last-Modified from one query (which bookings and published
   * events it shows and their versions), the body read and rendered only when the client does not already have it, and
   * then kept by ETag. Unknown token: NotFoundError.
   */
  async feed(token: string): Promise<RenderedFeed> {
    const now = this.clock.now();
    const window = {
      from: new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS),
      now,
      to: new Date(now.getTime() + FEED_FUTURE_DAYS * DAY_MS),
      limit: FEED_MAX_EVENTS,
    };
    const subscription = await findBySecretToken(token, FEED_TOKEN_PATTERN, (hash) => this.feeds.byToken(hash, window));
    if (!subscription) throw new NotFoundError('Calendar feed');
    const { organizationId, scheduleId, fingerprint } = subscription;
    // last_fetched_at to the minute: most polls write nothing.
    if (!subscription.lastFetchedAt || now.getTime() - subscription.lastFetchedAt.getTime() >= 60_000) {
      await this.feeds.touch(organizationId, scheduleId, now);
    }
    const lastModified = new Date(
      Math.max(fingerprint.lastModified?.getTime() ?? 0, subscription.scheduleUpdatedAt.getTime()),
    );
    const etag = `"${createHash('sha256')
      .update(`${scheduleId}|${fingerprint.count}|${fingerprint.digest}|${lastModified.getTime()}|${subscription.scheduleName}`)
      .digest('base64url')
      .slice(0, 27)}"`;
    return {
      etag,
      lastModified,
      // Read after the ETag: a booking changed in between makes the body newer than its ETag (the
      // next poll gets the new one), never older.
      body: () =>
        this.rendered.get(etag, async () => {
          const [bookings, events] = await Promise.all([
            this.feeds.bookings(organizationId, scheduleId, window),
            this.feeds.events(organizationId, scheduleId, window),
          ]);
          return renderCalendar(bookings, { name: subscription.scheduleName, refresh: true, now }, events);
        }),
    };
  }

  /** One booking as an iCalendar object (METHOD:PUBLISH). */
  async bookingCalendar(organizationId: string, bookingId: string): Promise<string> {
    const booking = await this.feeds.booking(organizationId, bookingId);
    if (!booking) throw new NotFoundError('Booking');
    return renderCalendar([booking], { name: booking.title, method: 'PUBLISH', now: this.clock.now() });
  }

  private async scheduleOrFail(organizationId: string, scheduleId: string): Promise<void> {
    if (!(await this.schedules.findById(organizationId, scheduleId)))
      throw new NotFoundError('Schedule');
  }
}
