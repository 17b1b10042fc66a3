import { Body, Delete, Get, Param, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { Principal, RequireScope, V1Controller, type ApiPrincipal } from '@almanac/identity';
import { ApiDataResponse, ApiProblems, UuidParam } from '@almanac/shared';
import type { Response } from 'express';
import { ReservationsService } from '../application/reservations.service';
import type { Reservation } from '../domain/reservation';
import { CreateReservationDto, ReservationDeletedResponse, ReservationResponse } from './dto/reservation.dto';
import { ApiReservationConflict } from './slot-problems';

function toReservationResponse(r: Reservation): ReservationResponse {
  return {
    id: r.id,
    event_type_id: r.eventTypeId,
    schedule_id: r.scheduleId,
    start_time: r.startTime.toISOString(),
    end_time: r.endTime.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    created_at: r.createdAt.toISOString(),
  };
}

@V1Controller('slots/reservations', 'slots')
export class ReservationsController {
  constructor(private readonly reservations: ReservationsService) {}

  @Post()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Hold a slot',
    description:
      "Holds one slot of the event type on the schedule for ttl_minutes (1–30, default 10): the start must be one GET /api/v1/slots offers at this moment, else 409 slot_unavailable with the first reason it is not (minimum_notice, booking_window, outside_availability, not_a_slot, booked, reserved, event, then the limits daily_limit, weekly_limit, monthly_limit, duration_limit, schedule_limit; booked, reserved and event name the holder). end_time is start + the type's duration. Until expires_at the reservation blocks [start − buffer_before, end + buffer_after) (the type's buffers) like a PENDING booking: /slots no longer offers what overlaps it, another reservation or any booking overlapping it (with or without event type, imports included) is refused, and it counts toward every limit of the type and of the schedule like a booking (the check and the insert run under the limits' locks, so the last place of a limit has one winner); a booking that sends its id as reservation_id consumes it. At expires_at it stops holding anything, at once. Of concurrent reservations, bookings and reschedules on overlapping time exactly one wins (the database decides).",
  })
  @ApiDataResponse(ReservationResponse, 201, 'The reservation; Location names it')
  @ApiProblems(400, 403, 413, 415, 422)
  @ApiReservationConflict()
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateReservationDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: ReservationResponse }> {
    const reservation = await this.reservations.create(principal.organizationId, {
      eventTypeId: body.event_type_id,
      scheduleId: body.schedule_id,
      startTime: new Date(body.start_time),
      ttlMinutes: body.ttl_minutes,
    });
    res.setHeader('Location', `/api/v1/slots/reservations/${reservation.id}`);
    return { data: toReservationResponse(reservation) };
  }

  @Get(':id')
  @RequireScope('bookings:read')
  @ApiOperation({ summary: 'Get a reservation', description: 'While it is unexpired; expired, consumed by a booking or released: 404.' })
  @ApiDataResponse(ReservationResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Reservation')) id: string,
  ): Promise<{ data: ReservationResponse }> {
    return { data: toReservationResponse(await this.reservations.get(principal.organizationId, id)) };
  }

  @Delete(':id')
  @RequireScope('bookings:write')
  @ApiOperation({ summary: 'Release a reservation', description: 'Its time is free at once. Expired, consumed or already released: 404.' })
  @ApiDataResponse(ReservationDeletedResponse)
  @ApiProblems(403, 404)
  async release(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Reservation')) id: string,
  ): Promise<{ data: ReservationDeletedResponse }> {
    await this.reservations.release(principal.organizationId, id);
    return { data: { id, deleted: true } };
  }
}
