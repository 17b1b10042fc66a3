import { Event, EVENT_FIELDS, representEvent } from '../domain/event';
import { Registration, REGISTRATION_FIELDS } from '../domain/registration';
import { EventResponse, ListedEventResponse } from './dto/event.response';
import { RegistrationResponse } from './dto/registration.dto';

export function toEventResponse(event: Event): EventResponse {
  return representEvent(event);
}

export function toListedEventResponse(event: Event, includeCounts: boolean): ListedEventResponse {
  return includeCounts ? toEventResponse(event) : EVENT_FIELDS.represent(event.snapshot);
}

export function toRegistrationResponse(r: Registration): RegistrationResponse {
  return REGISTRATION_FIELDS.represent(r);
}

/** The bodies of the single-record GETs (and PATCH answers): what their ETags are taken of. */
export const eventBody = (event: Event): { data: EventResponse } => ({ data: toEventResponse(event) });
export const registrationBody = (r: Registration): { data: RegistrationResponse } => ({ data: toRegistrationResponse(r) });
