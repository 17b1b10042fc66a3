import { Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { Principal, RequireScope, V1Controller, type ApiPrincipal } from '@almanac/identity';
import { ApiDataResponse, ApiProblems, UuidParam } from '@almanac/shared';
import { BookingSeriesService } from '../application/booking-series.service';
import { BookingSeriesResponse, CancelBookingSeriesQuery, CancelledBookingSeriesResponse } from './dto/booking.dto';
import { toSeriesResponse } from './scheduling.mappers';

/** Recurring series, made by `POST /api/v1/bookings` with `recurrence`; each occurrence is a booking of its own. */
@V1Controller('booking-series', 'bookings')
export class BookingSeriesController {
  constructor(private readonly series: BookingSeriesService) {}

  @Get(':id')
  @RequireScope('bookings:read')
  @ApiOperation({ summary: 'Get a recurring series', description: 'The recurrence and every occurrence, whatever its status, by start.' })
  @ApiDataResponse(BookingSeriesResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Booking series')) id: string,
  ): Promise<{ data: BookingSeriesResponse }> {
    const { series, bookings } = await this.series.get(principal.organizationId, id);
    return { data: toSeriesResponse(series, bookings) };
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Cancel a recurring series',
    description:
      'Cancels every PENDING or CONFIRMED occurrence, or with from (an occurrence of the series) that one and the later ones, in one transaction; each cancellation is announced by its own booking.cancelled event. Occurrences already over or cancelled stay as they are. from that is not a UUID: 400; not an occurrence of this series: 404.',
  })
  @ApiDataResponse(CancelledBookingSeriesResponse)
  @ApiProblems(400, 403, 404)
  async cancel(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Booking series')) id: string,
    @Query() query: CancelBookingSeriesQuery,
  ): Promise<{ data: CancelledBookingSeriesResponse }> {
    const { series, cancelled } = await this.series.cancel(principal.organizationId, id, query.from ?? null);
    return { data: { id: series.id, cancelled } };
  }
}
