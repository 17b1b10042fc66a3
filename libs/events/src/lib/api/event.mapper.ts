import { Event, EventFields } from '../domain/event';
import { Registration } from '../domain/registration';
import { CreateEventDto } from './dto/create-event.dto';
import { EventResponse, ListedEventResponse } from './dto/event.response';
import { RegistrationResponse } from './dto/registration.dto';
import { UpdateEventDto } from './dto/update-event.dto';

/** Body fields (snake_case) to domain fields; `undefined` stays "not given". */
export function toEventFields(dto: CreateEventDto | UpdateEventDto): EventFields {
  return {
    title: dto.title,
    startDate: dto.start_date,
    description: dto.description,
    startTime: dto.start_time,
    endTime: dto.end_time,
    timezone: dto.timezone,
    location: dto.location,
    cost: dto.cost,
    slots: dto.slots,
    status: dto.status,
    siteId: dto.site_id,
    waitlistEnabled: dto.waitlist_enabled,
  };
}

function baseResponse(event: Event) {
  const e = event.snapshot;
  return {
    id: e.id,
    title: e.title,
    description: e.description,
    start_date: e.startDate,
    start_time: e.startTime,
    end_time: e.endTime,
    timezone: e.timezone,
    location: e.location,
    cost: e.cost,
    slots: e.slots,
    status: e.status,
    site_id: e.siteId,
    waitlist_enabled: e.waitlistEnabled,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

export function toEventResponse(event: Event): EventResponse {
  return {
    ...baseResponse(event),
    registration_count: event.snapshot.registrationCount,
    slots_remaining: event.slotsRemaining,
    waitlist_count: event.snapshot.waitlistCount,
  };
}

export function toListedEventResponse(event: Event, includeCounts: boolean): ListedEventResponse {
  return includeCounts ? toEventResponse(event) : baseResponse(event);
}

export function toRegistrationResponse(r: Registration): RegistrationResponse {
  return {
    id: r.id,
    event_id: r.eventId,
    name: r.name,
    email: r.email,
    status: r.status,
    created_at: r.createdAt.toISOString(),
    cancelled_at: r.cancelledAt ? r.cancelledAt.toISOString() : null,
    position: r.position,
  };
}

/** The bodies of the single-record GETs (and PATCH answers): what their ETags are taken of. */
export const eventBody = (event: Event): { data: EventResponse } => ({ data: toEventResponse(event) });
export const registrationBody = (r: Registration): { data: RegistrationResponse } => ({ data: toRegistrationResponse(r) });
