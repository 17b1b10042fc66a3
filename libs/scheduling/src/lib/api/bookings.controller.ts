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
import { BookingSelfService } from '../application/booking-self-service.service';
import { BookingsService, type CreateBookingCommand, type UpdateBookingCommand } from '../application/bookings.service';
import { BOOKING_FIELDS } from '../domain/booking';
import {
  BookingListQuery,
  BookingResponse,
  CancelledBookingResponse,
  CreateBookingDto,
  CreatedBookingResponse,
  ManageTokenResponse,
  UpdateBookingDto,
} from './dto/booking.dto';
import { ApiBookingConflict } from './slot-problems';
import { bookingBody, toBookingResponse, toCancelledBookingResponse } from './scheduling.mappers';

@V1Controller('bookings', 'bookings')
export class BookingsController {
  constructor(
    private readonly bookings: BookingsService,
    private readonly selfService: BookingSelfService,
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
    summary: 'Create a booking',
    description:
      "A new booking is PENDING (whatever the event type's requires_approval). The answer alone carries its manage_token (the attendee's key to /public/v1/bookings/{token}; only its hash is kept). 409 booking_overlap when its blocked time [start − buffer_before, end + buffer_after) (the event type's buffers, kept on the booking) overlaps that of a PENDING or CONFIRMED booking of the schedule (booking_id) or a published event on it (event_id); 409 slot_unavailable with reason reserved (and reservation_id) when it overlaps an unexpired reservation's blocked time, unless it sends that reservation's id as reservation_id, which consumes it (reservation_mismatch, reservation_expired); 409 slot_unavailable with a reason (the first broken of: minimum_notice, booking_window, outside_availability, then, after the overlap, daily_limit, weekly_limit, monthly_limit, duration_limit, schedule_limit) unless, with an event type on a schedule that has availability, it fits the notice, the booking window, a window and the type's limits, and, in any case, the schedule's limits (periods local to the schedule time zone: days, weeks from Monday, calendar months; unexpired reservations count like bookings, the one consumed counting once); 422 invalid_reference for an unknown schedule_id or event_type_id.",
  })
  @ApiDataResponse(CreatedBookingResponse, 201, 'The new booking and its manage token; Location names it')
  @ApiProblems(400, 403, 413, 415, 422)
  @ApiBookingConflict()
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateBookingDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: CreatedBookingResponse }> {
    // The DTO made sure of the required fields; the attendee travels as one object.
    const command = {
      ...BOOKING_FIELDS.fromWire(body),
      attendee: body.attendee,
      reservationId: body.reservation_id ?? undefined,
    } as CreateBookingCommand;
    const { booking, manageToken } = await this.bookings.create(principal.organizationId, command);
    res.setHeader('Location', `/api/v1/bookings/${booking.id}`);
    return { data: { ...toBookingResponse(booking), manage_token: manageToken } };
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
