import { Controller, Delete, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiPrincipal, Principal, RequireScope, V1Controller } from '@almanac/identity';
import { ApiDataResponse, ApiProblems, AppConfig, HEADER_TEXT_PATTERN, NotFoundError, rateLimitedProblem, UuidParam } from '@almanac/shared';
import type { Request, Response } from 'express';
import { CalendarFeedLimits } from '../application/calendar-feed-limits';
import { CalendarFeedsService, FEED_MAX_EVENTS } from '../application/calendar-feeds.service';

class CalendarFeedCreated {
  @ApiProperty({
    example: 'https://almanac.example/calendar/3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue.ics',
    description: 'The secret subscription address, shown only here',
  })
  readonly url!: string;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
}

class CalendarFeedInfo {
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last time a calendar client fetched it (to the minute)',
  })
  readonly last_fetched_at!: string | null;
}

class CalendarFeedDeletion {
  @ApiProperty({ format: 'uuid' }) readonly schedule_id!: string;
  @ApiProperty({ enum: [true] }) readonly deleted!: true;
}

const ICS = { 'text/calendar': { schema: { type: 'string' } } };
const SCHEDULE = UuidParam('Schedule');

@V1Controller('schedules', 'schedules')
export class CalendarFeedsController {
  constructor(private readonly feeds: CalendarFeedsService) {}

  @Post(':id/calendar-feed')
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: "Create or replace the schedule's calendar feed",
    description:
      'A subscribable iCalendar address (RFC 5545) with every booking from 30 days ago to 366 days ahead. Calling it again replaces the token: the old address answers 404.',
  })
  @ApiDataResponse(CalendarFeedCreated, 201, 'The new address')
  @ApiProblems(403, 404)
  async create(
    @Principal() principal: ApiPrincipal,
    @Param('id', SCHEDULE) id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: CalendarFeedCreated }> {
    const created = await this.feeds.create(principal.organizationId, id);
    res.setHeader('Location', `/api/v1/schedules/${id}/calendar-feed`);
    return { data: { url: created.url, created_at: created.createdAt.toISOString() } };
  }

  @Get(':id/calendar-feed')
  @RequireScope('bookings:read')
  @ApiOperation({ summary: "The schedule's calendar feed (without its address)" })
  @ApiDataResponse(CalendarFeedInfo)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', SCHEDULE) id: string,
  ): Promise<{ data: CalendarFeedInfo }> {
    const feed = await this.feeds.get(principal.organizationId, id);
    return {
      data: {
        created_at: feed.createdAt.toISOString(),
        last_fetched_at: feed.lastFetchedAt?.toISOString() ?? null,
      },
    };
  }

  @Delete(':id/calendar-feed')
  @HttpCode(200)
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: "Delete the schedule's calendar feed",
    description: 'Its address answers 404 from now on.',
  })
  @ApiDataResponse(CalendarFeedDeletion)
  @ApiProblems(403, 404)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', SCHEDULE) id: string,
  ): Promise<{ data: CalendarFeedDeletion }> {
    await this.feeds.delete(principal.organizationId, id);
    return { data: { schedule_id: id, deleted: true } };
  }
}

@V1Controller('bookings', 'bookings')
export class BookingCalendarController {
  constructor(private readonly feeds: CalendarFeedsService) {}

  @Get(':id/calendar.ics')
  @RequireScope('bookings:read')
  @Header('Content-Type', 'text/calendar; charset=utf-8')
  @ApiOperation({
    summary: 'One booking as an iCalendar object',
    description: 'One VEVENT, METHOD:PUBLISH, for "add to calendar".',
  })
  @ApiResponse({ status: 200, description: 'text/calendar', content: ICS })
  @ApiProblems(403, 404)
  async ics(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Booking')) id: string,
  ): Promise<string> {
    return this.feeds.bookingCalendar(principal.organizationId, id);
  }
}

/** The public feed address: no authentication, the token is the secret. */
@ApiTags('schedules')
@Controller('calendar')
export class PublicCalendarController {
  constructor(
    private readonly feeds: CalendarFeedsService,
    private readonly limits: CalendarFeedLimits,
    private readonly config: AppConfig,
  ) {}

  @Get(':file')
  @ApiOperation({
    summary: 'A calendar feed (subscribe to it in Google, Outlook or Apple Calendar)',
    description:
      'RFC 5545 with RFC 7986 NAME and REFRESH-INTERVAL (15 minutes). Cancelled bookings stay as STATUS:CANCELLED so subscribers drop them; ' +
      'SEQUENCE grows with every change; the attendee appears by name only. Answers 304 to a matching If-None-Match or a later If-Modified-Since. ' +
      `The bookings starting from 30 days ago to 366 days ahead, at most ${FEED_MAX_EVENTS.toLocaleString('en')}: when there are more, the ones starting nearest to now (ties: the earlier). ` +
      'No key: limited per feed address (`CALENDAR_FEED_RATE_LIMIT_PER_MINUTE`, 60 requests a minute) and per client address, all feeds together ' +
      '(`CALENDAR_FEED_CLIENT_RATE_LIMIT_PER_MINUTE`, 600); past either, 429 with Retry-After.',
  })
  @ApiParam({
    name: 'file',
    description: 'The token followed by `.ics`',
    example: '3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue.ics',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, schema: { type: 'string', pattern: HEADER_TEXT_PATTERN } })
  @ApiHeader({ name: 'If-Modified-Since', required: false, schema: { type: 'string', pattern: HEADER_TEXT_PATTERN } })
  @ApiResponse({
    status: 200,
    description: 'The feed',
    content: ICS,
    headers: { ETag: { schema: { type: 'string' } }, 'Last-Modified': { schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 304,
    description: 'Not modified since the client fetched it',
    headers: { ETag: { schema: { type: 'string' } } },
  })
  @ApiProblems(404, 429)
  async feed(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const admission = this.limits.admit(file, this.config.trustedProxies.clientOf(req));
    if (!admission.allowed) {
      throw rateLimitedProblem(
        admission.byClient ? 'Too many calendar feed requests from this client; try again later.' : 'Too many requests for this calendar feed; try again later.',
        admission.retryAfterSeconds,
      );
    }
    if (!file.endsWith('.ics')) throw new NotFoundError('Calendar feed');
    const feed = await this.feeds.feed(file.slice(0, -4));
    const lastModified = new Date(Math.floor(feed.lastModified.getTime() / 1000) * 1000);
    res.setHeader('ETag', feed.etag);
    res.setHeader('Last-Modified', lastModified.toUTCString());
    res.setHeader('Cache-Control', 'private, max-age=0, must-revalidate');
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = Date.parse(req.headers['if-modified-since'] ?? '');
    const fresh =
      ifNoneMatch !== undefined
        ? ifNoneMatch.split(',').some((tag) => tag.trim() === feed.etag || tag.trim() === '*')
        : Number.isFinite(ifModifiedSince) && lastModified.getTime() <= ifModifiedSince;
    if (fresh) {
      res.status(304).end();
      return;
    }
    const body = await feed.body();
    res.status(200).setHeader('Content-Type', 'text/calendar; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.end(body);
  }
}
