import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPrincipal, assertVisible, OpenToPublishableKeys, Principal, RequireScope, V1Controller, visibleStatusFilter } from '@almanac/identity';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  assertChanges,
  Conditional,
  IfMatch,
  IfMatchHeader,
  ListResponse,
  pageOf,
  resolvePage,
  UuidParam,
  ValidationFailedError,
} from '@almanac/shared';
import type { Response } from 'express';
import { EventsService } from '../application/events.service';
import { EVENT_FIELDS, type EventFields } from '../domain/event';
import { CreateEventDto, UpdateEventDto } from './dto/event-input.dto';
import { DeletedEventResponse, EventResponse, ListedEventResponse } from './dto/event.response';
import { ListEventsQuery } from './dto/list-events.query';
import { eventBody, toEventResponse, toListedEventResponse } from './event.mapper';
import { ApiEventConflict } from './schedule-conflict.problem';

/** The calendar date a date filter names: a date as is, a date-time's own date as written. */
function dateOf(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.slice(0, 10);
}

@V1Controller('events', 'events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @RequireScope('events:read')
  @OpenToPublishableKeys()
  @ApiOperation({
    summary: 'List events',
    description:
      'Ordered by start_date, then start_time (events without a time first), then id. An event runs from ' +
      'start_date + start_time (00:00 when absent) to start_date + end_time (end of day when absent) in its ' +
      'own time zone; upcoming=true keeps events not yet ended, past=true those ended. A publishable key lists ' +
      'published events only; with it, any other `status` lists nothing.',
  })
  @ApiListResponse(ListedEventResponse)
  @ApiProblems(400, 403)
  async list(@Principal() principal: ApiPrincipal, @Query() query: ListEventsQuery): Promise<ListResponse<ListedEventResponse>> {
    if (query.upcoming === true && query.past === true) {
      const message = 'upcoming=true and past=true cannot be combined';
      throw new ValidationFailedError([
        { field: 'upcoming', message },
        { field: 'past', message },
      ]);
    }
    const page = resolvePage(query, 50);
    const status = visibleStatusFilter(principal, query.status, 'published');
    if (status === null) return pageOf([], 0, page);
    const { events, total } = await this.events.list(
      principal.organizationId,
      {
        siteId: query.site_id,
        status,
        upcoming: query.upcoming,
        past: query.past,
        fromDate: dateOf(query.start_date),
        toDate: dateOf(query.end_date),
      },
      page,
    );
    const includeCounts = query.include_counts === true;
    return pageOf(
      events.map((event) => toListedEventResponse(event, includeCounts)),
      total,
      page,
    );
  }

  @Get(':id')
  @Conditional()
  @RequireScope('events:read')
  @OpenToPublishableKeys()
  @ApiOperation({
    summary: 'One event, with registration_count and slots_remaining',
    description: 'A publishable key sees published events only; a draft or cancelled one is 404 to it.',
  })
  @ApiDataResponse(EventResponse)
  @ApiProblems(403, 404)
  async get(@Principal() principal: ApiPrincipal, @Param('id', UuidParam('Event')) id: string): Promise<{ data: EventResponse }> {
    const event = await this.events.get(principal.organizationId, id);
    assertVisible(principal, event.snapshot.status, 'published', 'Event');
    return eventBody(event);
  }

  @Post()
  @RequireScope('events:write')
  @ApiOperation({
    summary: 'Create an event (status draft, timezone UTC, cost 0, unlimited slots by default)',
    description:
      "With a schedule_id (a schedule of the organization, else 422 invalid_reference), a published event holds that schedule's time from its start to its end: created published over bookings, unexpired reservations or published events there, 409 schedule_conflict lists them.",
  })
  @ApiDataResponse(EventResponse, 201, 'The created event; Location names it')
  @ApiProblems(400, 403, 413, 415, 422)
  @ApiEventConflict('')
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateEventDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: EventResponse }> {
    const event = await this.events.create(principal.organizationId, {
      ...EVENT_FIELDS.fromWire(body),
      title: body.title,
      startDate: body.start_date,
    });
    res.location(`/api/v1/events/${event.id}`);
    return { data: toEventResponse(event) };
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('events:write')
  @ApiOperation({
    summary: 'Update an event',
    description:
      'Any create field; null clears a nullable one. Status moves: draft → published | cancelled, ' +
      'published → draft | cancelled; cancelled is final (409 invalid_transition); the current status again is a no-op. ' +
      'slots below the active registrations: 409 slots_below_registrations. ' +
      'A published event with a schedule_id holds that schedule\'s time: publishing it, or changing the schedule, date or times of a published one, over bookings, unexpired reservations or other published events there: 409 schedule_conflict listing them, nothing changed. schedule_id of no schedule of the organization: 422 invalid_reference.',
  })
  @ApiDataResponse(EventResponse)
  @ApiProblems(400, 403, 404, 413, 415, 422)
  @ApiEventConflict(', invalid_transition, slots_below_registrations')
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Event')) id: string,
    @Body() body: UpdateEventDto,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: EventResponse }> {
    const changes: EventFields = EVENT_FIELDS.fromWire(body);
    assertChanges(changes);
    return eventBody(await this.events.update(principal.organizationId, id, changes, ifMatch.of(eventBody)));
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('events:write')
  @ApiOperation({ summary: 'Delete an event and its registrations' })
  @ApiDataResponse(DeletedEventResponse)
  @ApiProblems(403, 404)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Event')) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: DeletedEventResponse }> {
    await this.events.delete(principal.organizationId, id, ifMatch.of(eventBody));
    return { data: { id, deleted: true } };
  }
}
