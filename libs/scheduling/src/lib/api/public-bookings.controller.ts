import { Body, Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiProblems } from '@almanac/shared';
import { BookingSelfService } from '../application/booking-self-service.service';
import { toAttendeeBookingResponse } from './attendee-booking.mapper';
import { AttendeeBookingResponse, AttendeeCancelDto, AttendeeRescheduleDto } from './dto/public-booking.dto';
import { SlotListMeta, SlotRangeQuery, SlotResponse } from './dto/slot.dto';
import { ApiBookingConflict } from './slot-problems';
import { ApiSlotList, slotListBody } from './slots.controller';

const TOKEN = ApiParam({
  name: 'token',
  description:
    "The booking's manage token (`bkt_` and 32 letters and digits), given once in the booking's create answer. Unknown, malformed or replaced: 404.",
  example: 'bkt_3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue',
});

/**
 * The attendee's side of a booking: no key, the manage token in the address is the secret. What it
 * answers never holds the attendee's e-mail, phone, notes or the booking's metadata.
 */
@ApiTags('bookings')
@Controller('public/v1/bookings')
export class PublicBookingsController {
  constructor(private readonly selfService: BookingSelfService) {}

  @Get(':token')
  @Header('X-Robots-Tag', 'noindex')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOperation({
    summary: 'A booking, as its attendee sees it',
    description:
      "The booking's time, title, place and attendee name, its event type, and what the attendee may do now: can_cancel and can_reschedule are true until the start minus the event type's notice (cancellable_until, reschedulable_until, that instant included); both false and the instant null when the status (only PENDING or CONFIRMED bookings) or the event type forbids it. A booking without an event type may be cancelled and rescheduled until its start.",
  })
  @TOKEN
  @ApiDataResponse(AttendeeBookingResponse)
  @ApiProblems(404)
  async view(@Param('token') token: string): Promise<{ data: AttendeeBookingResponse }> {
    return { data: toAttendeeBookingResponse(await this.selfService.view(token)) };
  }

  @Post(':token/cancel')
  @HttpCode(200)
  @Header('X-Robots-Tag', 'noindex')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOperation({
    summary: 'Cancel a booking as its attendee',
    description:
      "PENDING or CONFIRMED → CANCELLED, with cancelled_by `attendee` and the reason given (the API's booking answers show both; booking.cancelled is announced as for any cancellation). An already cancelled booking: 200, unchanged. COMPLETED or NO_SHOW: 409 invalid_transition; an event type with attendee_can_cancel false: 403 forbidden; after cancellable_until (the start minus cancel_notice_minutes): 409 notice_period_passed.",
  })
  @TOKEN
  @ApiDataResponse(AttendeeBookingResponse)
  @ApiProblems(400, 403, 404, 409, 413, 415)
  async cancel(@Param('token') token: string, @Body() body: AttendeeCancelDto): Promise<{ data: AttendeeBookingResponse }> {
    return { data: toAttendeeBookingResponse(await this.selfService.cancel(token, body?.reason ?? null)) };
  }

  @Get(':token/slots')
  @Header('X-Robots-Tag', 'noindex')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOperation({
    summary: 'Slots a booking may move to',
    description:
      "The answer of GET /api/v1/slots for the booking's event type and schedule (same range and time zone rules, same rules of which slots), where the booking's own time does not block itself. A booking without an event type: 400.",
  })
  @TOKEN
  @ApiSlotList()
  @ApiProblems(400, 404)
  async slots(@Param('token') token: string, @Query() query: SlotRangeQuery): Promise<{ data: SlotResponse[]; meta: SlotListMeta }> {
    const { slots, timezone } = await this.selfService.slotsOf(token, {
      start: query.start,
      end: query.end,
      timezone: query.timezone,
    });
    return slotListBody(slots, timezone);
  }

  @Post(':token/reschedule')
  @HttpCode(200)
  @Header('X-Robots-Tag', 'noindex')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOperation({
    summary: 'Reschedule a booking as its attendee',
    description:
      "Moves the booking to start_time, keeping its length, by the API's own reschedule: every rule of a reschedule applies (availability, notice, booking window and limits: 409 slot_unavailable with a reason; another booking's blocked time: 409 booking_overlap), and booking.updated is announced. An event type with attendee_can_reschedule false: 403 forbidden; a booking that is not PENDING or CONFIRMED (a cancelled one included): 409 invalid_transition; after reschedulable_until (the current start minus reschedule_notice_minutes): 409 notice_period_passed.",
  })
  @TOKEN
  @ApiDataResponse(AttendeeBookingResponse)
  @ApiProblems(400, 403, 404, 413, 415)
  @ApiBookingConflict()
  async reschedule(@Param('token') token: string, @Body() body: AttendeeRescheduleDto): Promise<{ data: AttendeeBookingResponse }> {
    return { data: toAttendeeBookingResponse(await this.selfService.reschedule(token, new Date(body.start_time))) };
  }
}
