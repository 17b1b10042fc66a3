import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
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
  ValidationFailedError,
} from '@almanac/shared';
import type { Response } from 'express';
import { BookingSelfService } from '../application/booking-self-service.service';
import { BookingSeriesService } from '../application/booking-series.service';
import { BookingsService, type CreateBookingCommand, type UpdateBookingCommand } from '../application/bookings.service';
import { BOOKING_FIELDS } from '../domain/booking';
import { DEFAULT_RECURRENCE_INTERVAL } from '../domain/recurrence';
import {
  BookingListQuery,
  BookingResponse,
  CancelledBookingResponse,
  CreateBookingDto,
  CreatedBookingResponse,
  ManageTokenResponse,
  CreatedBookingSeriesResponse,
  UpdateBookingDto,
} from './dto/booking.dto';
import { ApiBookingConflict } from './slot-problems';
import {
  bookingBody,
  toBookingResponse,
  toCancelledBookingResponse,
  toCreatedSeriesResponse,
} from './scheduling.mappers';

@V1Controller('bookings', 'bookings')
export class BookingsController {
  constructor(
    private readonly bookings: BookingsService,
    private readonly selfService: BookingSelfService,
    private readonly series: BookingSeriesService,
  ) {}

  @Get()
  @RequireScope('bookings:read')
  @ApiOperation({
    summary: 'List bookings',
    description: 'Filters combine with AND. Ordered by start_time, then id.',
  })
  @ApiListResponse(BookingResponse)
  @ApiProblems(400, 403)
  async list(
    @Principal() principal: ApiPrincipal,
    @Query() query: BookingListQuery,
  ): Promise<ListResponse<BookingResponse>> {
    const page = resolvePage(query, 50);
    const { items, total } = await this.bookings.list(
      principal.organizationId,
      {
        scheduleId: query.schedule_id,
        eventTypeId: query.event_type_id,
        seriesId: query.series_id,
        status: query.status,
        upcoming: query.upcoming,
        startDate: query.start_date,
        endDate: query.end_date,
        attendeeEmail: query.attendee_email,
      },
      page,
    );
    return pageOf(items.map(toBookingResponse), total, page);
  }

  @Get(':id')
  @Conditional()
  @RequireScope('bookings:read')
  @ApiOperation({ summary: 'Get a booking' })
  @ApiDataResponse(BookingResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Booking')) id: string,
  ): Promise<{ data: BookingResponse }> {
    return bookingBody(await this.bookings.get(principal.organizationId, id));
  }

  @Post()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Create a booking, or a recurring series of bookings',
    description:
      "A new booking is PENDING (whatever the event type's requires_approval). The answer alone carries its manage_token (the attendee's key to /public/v1/bookings/{token}; only its hash is kept). 409 booking_overlap when its blocked time [start − buffer_before, end + buffer_after) (the event type's buffers, kept on the booking) overlaps that of a PENDING or CONFIRMED booking of the schedule (booking_id) or a published event on it (event_id); 409 slot_unavailable with reason reserved (and reservation_id) when it overlaps an unexpired reservation's blocked time, unless it sends that reservation's id as reservation_id, which consumes it (reservation_mismatch, reservation_expired); 409 slot_unavailable with a reason (the first broken of: minimum_notice, booking_window, outside_availability, then, after the overlap, daily_limit, weekly_limit, monthly_limit, duration_limit, schedule_limit) unless, with an event type on a schedule that has availability, it fits the notice, the booking window, a window and the type's limits, and, in any case, the schedule's limits (periods local to the schedule time zone: days, weeks from Monday, calendar months; unexpired reservations count like bookings, the one consumed counting once); 422 invalid_reference for an unknown schedule_id or event_type_id." +
      "With recurrence, the request makes a series (at most 52 occurrences) and the 201 answer differs: {data: {series_id, recurrence, bookings, skipped}} with Location /api/v1/booking-series/{series_id}. Each occurrence starts at the first one's wall-clock time in the booking's timezone (a time a DST change skips moves forward by the gap) and lasts as long as the first. Every occurrence is checked with every rule above (each counting toward the limits as if the earlier ones kept were booked); any that fails makes the whole series fail with 409 recurrence_conflict, whose conflicts list every failing occurrence with its reason, and nothing is created; with on_conflict: skip the others are created and the failing ones listed in skipped (409 when none fits). Concurrent series and bookings never leave overlaps: each series is created whole or not at all.",
  })
  @ApiExtraModels(CreatedBookingResponse, CreatedBookingSeriesResponse)
  @ApiResponse({
    status: 201,
    description:
      'Without recurrence: the new booking and its manage token, and Location names it. With recurrence: the series (a different shape: series_id, recurrence, bookings each with its manage token, skipped), and Location names the series',
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        data: { anyOf: [{ $ref: getSchemaPath(CreatedBookingResponse) }, { $ref: getSchemaPath(CreatedBookingSeriesResponse) }] },
      },
    },
  })
  @ApiProblems(400, 403, 413, 415, 422)
  @ApiBookingConflict()
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateBookingDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: CreatedBookingResponse | CreatedBookingSeriesResponse }> {
    // The DTO made sure of the required fields; the attendee travels as one object.
    const command = {
      ...BOOKING_FIELDS.fromWire(body),
      attendee: body.attendee,
      reservationId: body.reservation_id ?? undefined,
    } as CreateBookingCommand;
    if (body.recurrence === undefined) {
      if (body.on_conflict !== undefined) {
        throw new ValidationFailedError([{ field: 'on_conflict', message: 'is only accepted with recurrence' }]);
      }
      const { booking, manageToken } = await this.bookings.create(principal.organizationId, command);
      res.setHeader('Location', `/api/v1/bookings/${booking.id}`);
      return { data: { ...toBookingResponse(booking), manage_token: manageToken } };
    }
    // A reservation holds one slot; a series has many occurrences, so it cannot consume one.
    if (command.reservationId !== undefined) {
      throw new ValidationFailedError([{ field: 'reservation_id', message: 'is only accepted without recurrence' }]);
    }
    const recurrence = {
      frequency: body.recurrence.frequency,
      interval: body.recurrence.interval ?? DEFAULT_RECURRENCE_INTERVAL,
      count: body.recurrence.count,
    };
    const created = await this.series.create(
      principal.organizationId,
      command,
      recurrence,
      body.on_conflict === 'skip' ? 'skip' : 'reject',
    );
    res.setHeader('Location', `/api/v1/booking-series/${created.series.id}`);
    return { data: toCreatedSeriesResponse(created.series, created.bookings, created.skipped) };
  }

  @Post(':id/manage-token')
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: "Replace a booking's manage token",
    description:
      'A new manage token for the booking, shown only in this answer (only its hash is kept); the old one opens nothing from now on (404). Any status.',
  })
  @ApiDataResponse(ManageTokenResponse, 201, 'The new token; Location names the booking')
  @ApiProblems(403, 404)
  async replaceManageToken(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Booking')) id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: ManageTokenResponse }> {
    const token = await this.selfService.replaceToken(principal.organizationId, id);
    res.setHeader('Location', `/api/v1/bookings/${id}`);
    return { data: { manage_token: token } };
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Update a booking',
    description:
      'Status moves (PENDING → CONFIRMED | CANCELLED, CONFIRMED → COMPLETED | CANCELLED | NO_SHOW), details, attendee fields, metadata (replaced) and reschedule (start_time + end_time, PENDING or CONFIRMED only; checked against availability and limits like a create, the booking not counting against itself: 409 slot_unavailable). An empty body, or an unknown or read-only field: 400.',
  })
  @ApiDataResponse(BookingResponse)
  @ApiProblems(400, 403, 404, 413, 415)
  @ApiBookingConflict()
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Booking')) id: string,
    @Body() body: UpdateBookingDto,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: BookingResponse }> {
    const command: UpdateBookingCommand = { ...BOOKING_FIELDS.fromWire(body), attendee: body.attendee };
    return bookingBody(await this.bookings.update(principal.organizationId, id, command, ifMatch.of(bookingBody)));
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Cancel a booking (soft delete)',
    description:
      'PENDING or CONFIRMED → CANCELLED; a CANCELLED booking answers 200 with the same body (idempotent); COMPLETED or NO_SHOW: 409 invalid_transition. The record is kept.',
  })
  @ApiDataResponse(CancelledBookingResponse)
  @ApiProblems(403, 404, 409)
  async cancel(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Booking')) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: CancelledBookingResponse }> {
    const cancelled = await this.bookings.cancel(principal.organizationId, id, ifMatch.of(bookingBody));
    return { data: toCancelledBookingResponse(cancelled) };
  }
}
