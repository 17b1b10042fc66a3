import { applyDecorators, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { Principal, RateLimitCost, RequireScope, V1Controller, type ApiPrincipal } from '@almanac/identity';
import { ApiProblems } from '@almanac/shared';
import { SlotsService, type UnavailableSlot } from '../application/slots.service';
import { hhmm, Slot, slotQueryCost } from '../domain/slots';
import { SlotListMeta, SlotQuery, SlotResponse, UnavailableSlotResponse } from './dto/slot.dto';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** 10000-01-01T00:00Z: ISO strings of instants before it have a four-digit year. */
const YEAR_10000 = 253_402_300_800_000;

/**
 * ISO strings (`…T10:00:00.000Z`) of many instants on whole minutes of a few days — an answer of
 * up to 18,000 slots: each day's text is made once, the time of day comes from a table.
 */
class IsoInstants {
  private day = NaN;
  private prefix = '';

  format(instant: Slot['start']): string {
    const day = Math.floor(instant / DAY);
    const rest = instant - day * DAY;
    if (rest % MINUTE !== 0 || instant < 0 || instant >= YEAR_10000) return new Date(instant).toISOString();
    if (day !== this.day) {
      this.day = day;
      this.prefix = new Date(day * DAY).toISOString().slice(0, 11);
    }
    return `${this.prefix}${hhmm(rest / MINUTE)}:00.000Z`;
  }
}

/** The answer of a slots query: every slot at once, its instants in UTC and its start told in `timezone`. */
export function slotListBody(
  slots: readonly Slot[],
  timezone: string,
  unavailable?: readonly UnavailableSlot[],
): { data: SlotResponse[]; meta: SlotListMeta } {
  const iso = new IsoInstants();
  const data = slots.map((s) => ({
    start_time: iso.format(s.start),
    end_time: iso.format(s.end),
    local_date: s.localDate,
    local_time: s.localTime,
  }));
  const meta: SlotListMeta = { total: data.length, limit: data.length, offset: 0, hasMore: false, timezone };
  if (!unavailable) return { data, meta };
  // With explain: every candidate not offered, and the record holding it as `<kind>_id`.
  const explained = unavailable.map((u): UnavailableSlotResponse => ({
    start_time: iso.format(u.start),
    end_time: iso.format(u.end),
    reason: u.reason,
    ...(u.holder && { [`${u.holder.kind}_id`]: u.holder.id }),
  }));
  return { data, meta: { ...meta, unavailable: explained } };
}

/** The OpenAPI answer of a slots query (`slotListBody`). */
export function ApiSlotList(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(SlotResponse, SlotListMeta, UnavailableSlotResponse),
    ApiResponse({
      status: 200,
      description: 'All slots of the range',
      headers: {
        Link: { description: 'RFC 8288 link to the `first` (and only) page', schema: { type: 'string' } },
      },
      schema: {
        type: 'object',
        required: ['data', 'meta'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(SlotResponse) } },
          meta: { $ref: getSchemaPath(SlotListMeta) },
        },
      },
    }),
  );
}

@V1Controller('slots', 'slots')
export class SlotsController {
  constructor(private readonly slots: SlotsService) {}

  @Get()
  @RequireScope('bookings:read')
  @RateLimitCost((query, now) => slotQueryCost(query['start'], query['end'], now), '1 unit per day of [start, end), a started day counting: 1 to 62')
  @ApiOperation({
    summary: 'Bookable slots of an event type on a schedule',
    description:
      "Every slot in [start, end) at once, sorted by start: the schedule's windows of each local date (its override, its weekly rules, or the whole day without availability), candidate starts every slot_interval (default the duration, but never less than 5 minutes apart, slot_interval's own minimum: at most 288 slots a day, about 18,000 in a 62-day answer) from each window's start while the slot fits in the window; offered when start ≥ now + minimum_notice, start < now + booking_window_days, its blocked time (with the type's buffers) meets no PENDING or CONFIRMED booking's blocked time, nor an unexpired reservation's (POST /api/v1/slots/reservations) nor a published event's on the schedule, and no limit of the type (max_bookings_per_day, _per_week, _per_month, max_booked_minutes_per_day, _per_week) or of the schedule (its max_bookings_per_day, _per_week, max_booked_minutes_per_day, _per_week) would be broken by a booking of the type's duration starting on that local date (days, weeks from Monday and calendar months of the schedule time zone; unexpired reservations count like bookings). With explain=true, meta.unavailable lists every other candidate start inside the windows and the range, sorted by start, with the first reason it is not offered and the record holding it (booking_id, reservation_id, event_id); the slots offered do not change. " +
      "Its work grows with the range, and so does its cost against the key's rate limit: 1 unit per day of the range (a started day counting; the default 7 days: 7 units; 62 days: 62), where other requests cost 1 (see `x-rate-limit-cost`; date-only bounds are counted as UTC days). RateLimit-Remaining says the units left after it.",
  })
  @ApiSlotList()
  @ApiProblems(400, 403, 404)
  async list(
    @Principal() principal: ApiPrincipal,
    @Query() query: SlotQuery,
  ): Promise<{ data: SlotResponse[]; meta: SlotListMeta }> {
    const { slots, timezone, unavailable } = await this.slots.list(principal.organizationId, {
      eventTypeId: query.event_type_id,
      scheduleId: query.schedule_id,
      start: query.start,
      end: query.end,
      timezone: query.timezone,
      explain: query.explain,
    });
    return slotListBody(slots, timezone, unavailable);
  }
}
