import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { Principal, RequireScope, V1Controller, type ApiPrincipal } from '@almanac/identity';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  Conditional,
  IfMatch,
  IfMatchHeader,
  ListResponse,
  pageOf,
  resolvePage,
  UuidParam,
} from '@almanac/shared';
import type { Response } from 'express';
import { CreateEventTypeCommand, EventTypesService } from '../application/event-types.service';
import { EVENT_TYPE_FIELDS } from '../domain/event-type';
import {
  CreateEventTypeDto,
  EventTypeDeletedResponse,
  EventTypeListQuery,
  EventTypeResponse,
  UpdateEventTypeDto,
} from './dto/event-type.dto';
import { eventTypeBody, toEventTypeResponse } from './scheduling.mappers';

@V1Controller('event-types', 'event-types')
export class EventTypesController {
  constructor(private readonly eventTypes: EventTypesService) {}

  @Get()
  @RequireScope('bookings:read')
  @ApiOperation({
    summary: 'List event types',
    description:
      'active=true (default) lists active types, active=false inactive ones. Ordered by created_at, then id.',
  })
  @ApiListResponse(EventTypeResponse)
  @ApiProblems(400, 403)
  async list(
    @Principal() principal: ApiPrincipal,
    @Query() query: EventTypeListQuery,
  ): Promise<ListResponse<EventTypeResponse>> {
    const page = resolvePage(query, 50);
    const { items, total } = await this.eventTypes.list(principal.organizationId, query.active ?? true, page);
    return pageOf(items.map(toEventTypeResponse), total, page);
  }

  @Get(':id')
  @Conditional()
  @RequireScope('bookings:read')
  @ApiOperation({ summary: 'Get an event type' })
  @ApiDataResponse(EventTypeResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Event type')) id: string,
  ): Promise<{ data: EventTypeResponse }> {
    return eventTypeBody(await this.eventTypes.get(principal.organizationId, id));
  }

  @Post()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Create an event type',
    description:
      'Defaults: location_type video, requires_approval false, is_active true; description, location_details and color null; ' +
      'buffers and minimum_notice 0; slot_interval, booking_window_days and every limit (max_bookings_per_day, _per_week, _per_month, max_booked_minutes_per_day, _per_week) null. ' +
      'The slug is generated from the title when absent.',
  })
  @ApiDataResponse(EventTypeResponse, 201, 'The new event type; Location names it')
  @ApiProblems(400, 403, 409, 413, 415)
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateEventTypeDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: EventTypeResponse }> {
    // The DTO made sure of title and duration.
    const eventType = await this.eventTypes.create(principal.organizationId, EVENT_TYPE_FIELDS.fromWire(body) as CreateEventTypeCommand);
    res.setHeader('Location', `/api/v1/event-types/${eventType.id}`);
    return { data: toEventTypeResponse(eventType) };
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('bookings:write')
  @ApiOperation({ summary: 'Update an event type', description: 'Any create field; an empty body is 400.' })
  @ApiDataResponse(EventTypeResponse)
  @ApiProblems(400, 403, 404, 409, 413, 415)
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Event type')) id: string,
    @Body() body: UpdateEventTypeDto,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: EventTypeResponse }> {
    const command = EVENT_TYPE_FIELDS.fromWire(body);
    return eventTypeBody(await this.eventTypes.update(principal.organizationId, id, command, ifMatch.of(eventTypeBody)));
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Delete an event type',
    description: 'Its bookings keep their history with event_type_id null.',
  })
  @ApiDataResponse(EventTypeDeletedResponse)
  @ApiProblems(403, 404)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Event type')) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: EventTypeDeletedResponse }> {
    const { id: deletedId } = await this.eventTypes.delete(principal.organizationId, id, ifMatch.of(eventTypeBody));
    return { data: { id: deletedId, deleted: true } };
  }
}
