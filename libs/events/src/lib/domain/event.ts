import { field, FieldError, recordFields, ValidationFailedError } from '@almanac/shared/domain';
import { EventFullError, EventNotOpenError, SlotsBelowRegistrationsError } from './event-errors';
import { EventStatus, nextEventStatus } from './event-status';
import { eventWindow, timingErrors } from './event-timing';
import { isMoneyAmount } from './money';

export const TITLE_MAX_LENGTH = 300;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const LOCATION_MAX_LENGTH = 500;
export const SITE_ID_MAX_LENGTH = 200;
export const MAX_SLOTS = 1_000_000;

export interface EventProps {
  readonly id: string;
  readonly organizationId: string;
  readonly siteId: string | null;
  /** The schedule of the event's host; while published, the event holds its time there. */
  readonly scheduleId: string | null;
  readonly title: string;
  readonly description: string | null;
  readonly startDate: string;
  readonly startTime: string | null;
  readonly endTime: string | null;
  readonly timezone: string;
  readonly location: string | null;
  /** Dollars, at most two decimals. */
  readonly cost: number;
  /** Maximum active registrations; null is unlimited. */
  readonly slots: number | null;
  readonly status: EventStatus;
  /** Active registrations (kept by the database). */
  readonly registrationCount: number;
  /** When full, new registrations join a waiting list instead of being refused. */
  readonly waitlistEnabled: boolean;
  /** Registrations waiting for a place (kept by the database). */
  readonly waitlistCount: number;
  /** Instants derived from the date, times and zone; recomputed on every change. */
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * Every field of an event, in the order its representation lists them; the counts are shown with
 * `slots_remaining` after the others (see the API's mapper).
 */
export const EVENT_FIELDS = recordFields<EventProps>()({
  id: field.value,
  organizationId: field.hidden(field.value),
  title: field.value,
  description: field.value,
  startDate: field.date,
  startTime: field.time,
  endTime: field.time,
  timezone: field.value,
  location: field.value,
  cost: field.value,
  slots: field.value,
  status: field.value,
  siteId: field.value,
  scheduleId: field.value,
  waitlistEnabled: field.value,
  createdAt: field.instant,
  updatedAt: field.instant,
  registrationCount: field.hidden(field.value),
  waitlistCount: field.hidden(field.value),
  startsAt: field.hidden(field.instant),
  endsAt: field.hidden(field.instant),
});

/** Kept by the server: the identity, the counts, the derived instants, the timestamps. */
type GovernedEventField =
  | 'id'
  | 'organizationId'
  | 'registrationCount'
  | 'waitlistCount'
  | 'startsAt'
  | 'endsAt'
  | 'createdAt'
  | 'updatedAt';

/** Fields a client sets. On update, `undefined` leaves a field alone and `null` clears a nullable one. */
export type EventFields = { -readonly [K in Exclude<keyof EventProps, GovernedEventField>]?: EventProps[K] };

export type NewEvent = EventFields & {
  title: string;
  startDate: string;
};

export const EVENT_DEFAULTS = { status: 'draft', timezone: 'UTC', cost: 0, slots: null, waitlistEnabled: false } as const;

/** The rules on single fields the transport layer should already have enforced; checked again here. */
function fieldErrors(p: EventProps): FieldError[] {
  const errors: FieldError[] = [];
  if (p.title.trim().length === 0 || p.title.length > TITLE_MAX_LENGTH) {
    errors.push({ field: 'title', message: `must be 1-${TITLE_MAX_LENGTH} characters, not blank` });
  }
  if (p.description !== null && p.description.length > DESCRIPTION_MAX_LENGTH) {
    errors.push({ field: 'description', message: `must be at most ${DESCRIPTION_MAX_LENGTH} characters` });
  }
  if (p.location !== null && p.location.length > LOCATION_MAX_LENGTH) {
    errors.push({ field: 'location', message: `must be at most ${LOCATION_MAX_LENGTH} characters` });
  }
  if (p.siteId !== null && (p.siteId.length === 0 || p.siteId.length > SITE_ID_MAX_LENGTH)) {
    errors.push({ field: 'site_id', message: `must be 1-${SITE_ID_MAX_LENGTH} characters` });
  }
  if (!isMoneyAmount(p.cost)) {
    errors.push({ field: 'cost', message: 'must be a number >= 0 with at most two decimals' });
  }
  if (p.slots !== null && (!Number.isInteger(p.slots) || p.slots < 1 || p.slots > MAX_SLOTS)) {
    errors.push({ field: 'slots', message: `must be an integer between 1 and ${MAX_SLOTS}, or null` });
  }
  return errors;
}

function validated(props: EventProps): EventProps {
  const errors = [...fieldErrors(props), ...timingErrors(props)];
  if (errors.length > 0) throw new ValidationFailedError(errors);
  return { ...props, ...eventWindow(props) };
}

/** The fields `changes` gives (a field given as undefined is not given). */
function given(changes: EventFields): EventFields {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

/** Filters of the event list. */
export interface EventListFilter {
  siteId?: string;
  status?: EventStatus;
  /** Only events not yet ended at this instant. */
  endsAfter?: Date;
  /** Only events ended at this instant. */
  endedBy?: Date;
  /** start_date on or after (YYYY-MM-DD). */
  fromDate?: string;
  /** start_date on or before (YYYY-MM-DD). */
  toDate?: string;
}

/** A dated happening with a cost and a number of places. */
export class Event {
  private constructor(private props: EventProps) {}

  static create(input: NewEvent, ids: { id: string; organizationId: string }, now: Date): Event {
    const props = validated({
      id: ids.id,
      organizationId: ids.organizationId,
      siteId: input.siteId ?? null,
      scheduleId: input.scheduleId ?? null,
      title: input.title,
      description: input.description ?? null,
      startDate: input.startDate,
      startTime: input.startTime ?? null,
      endTime: input.endTime ?? null,
      timezone: input.timezone ?? EVENT_DEFAULTS.timezone,
      location: input.location ?? null,
      cost: input.cost ?? EVENT_DEFAULTS.cost,
      slots: input.slots ?? EVENT_DEFAULTS.slots,
      status: input.status ?? EVENT_DEFAULTS.status,
      registrationCount: 0,
      waitlistEnabled: input.waitlistEnabled ?? EVENT_DEFAULTS.waitlistEnabled,
      waitlistCount: 0,
      startsAt: now,
      endsAt: now,
      createdAt: now,
      updatedAt: now,
    });
    return new Event(props);
  }

  static restore(props: EventProps): Event {
    return new Event({ ...props });
  }

  get snapshot(): Readonly<EventProps> {
    return this.props;
  }

  get id(): string {
    return this.props.id;
  }

  /** Free places; null when the event is unlimited. */
  get slotsRemaining(): number | null {
    return this.props.slots === null ? null : Math.max(0, this.props.slots - this.props.registrationCount);
  }

  /**
   * Applies a partial change. Status moves follow the transition table; slots may not drop below the
   * active registrations. Returns false (and changes nothing) when every given value is the current one.
   */
  update(changes: EventFields, now: Date): boolean {
    const current = this.props;
    const fields = given(changes);
    const status = fields.status === undefined ? current.status : nextEventStatus(current.status, fields.status);
    const next = validated({ ...current, ...fields, status });
    if (next.slots !== null && next.slots < current.registrationCount) {
      throw new SlotsBelowRegistrationsError(next.slots, current.registrationCount);
    }
    if ((Object.keys(fields) as (keyof EventFields)[]).every((key) => next[key] === current[key])) return false;
    this.props = { ...next, updatedAt: now };
    return true;
  }

  /**
   * Only a published event takes a new registration: active while a place is free; when full, on the
   * waiting list if the event keeps one, else refused.
   */
  admitRegistration(): 'active' | 'waitlisted' {
    if (this.props.status !== 'published') throw new EventNotOpenError(this.props.status);
    if (this.slotsRemaining !== 0) return 'active';
    if (this.props.waitlistEnabled) return 'waitlisted';
    throw new EventFullError();
  }
}

/** An event as its single GET shows it: every shown field, then its counts and its free places. */
export function representEvent(event: Event) {
  const e = event.snapshot;
  return {
    ...EVENT_FIELDS.represent(e),
    registration_count: e.registrationCount,
    slots_remaining: event.slotsRemaining,
    waitlist_count: e.waitlistCount,
  };
}
