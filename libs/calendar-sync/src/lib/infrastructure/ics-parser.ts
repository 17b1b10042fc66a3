import ICAL from 'ical.js';
// The kernel's domain entry alone: a parsing thread loads this module, and the whole kernel (Nest,
// TypeORM, the metrics) would take it seconds to start.
import { isIanaTimeZone, zonedTimeToUtc } from '@almanac/shared/domain';
import { FeedOccurrence, FeedTextLimits, MAX_FEED_UID_LENGTH, Person } from '../domain/feed-occurrence';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;

/** Expansion stops here: a feed that yields more occurrences in range is refused as unreasonable. */
export const MAX_OCCURRENCES = 50_000;

/**
 * Expanding every series of a feed from its DTSTART may take at most this many steps in all (one
 * budget for the whole feed, not one per series: a feed of many minutely series is refused as a whole).
 * A weekly meeting since 2000 is ~1,400 steps; a daily one ~9,500.
 */
export const MAX_ITERATIONS = 200_000;

/**
 * CPU budget of one parse, in ms of this process's CPU time, checked while expanding (the worker's
 * deadline is the hard stop). CPU time, not the wall clock: on a busy machine an honest feed of 12,000
 * occurrences spends a third of a second of CPU but ten times that in wall time, waiting for a core,
 * and would be refused for other processes' work. The process's time includes its other threads',
 * so a busy server refuses a costly feed sooner, never later.
 */
export const MAX_PARSE_MS = 5_000;

/** The CPU time this process has spent, in ms (user and system, every thread). */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The most text one parse hands back, in characters, over all occurrences (UIDs, titles, places, the
 * contact's name and e-mail). Each occurrence's text is cut to what a booking stores (a little over
 * 2,000 characters with a UID of 1,000), but the 50,000 occurrences a parse may give could still hold
 * 100 million characters, copied to the import's thread and kept while it runs. Real calendars spend
 * ~200 characters an occurrence (a UID of ~50, a title of ~40, a place, a person), so 50,000 of them
 * take ~10 million: 16 Mi leaves room and bounds what an import keeps in memory to ~32 MB of text.
 */
export const MAX_RESULT_CHARS = 16 * 1024 * 1024;

/** Real zones have a handful of STANDARD/DAYLIGHT observances, each YEARLY at most. */
const MAX_TIMEZONE_OBSERVANCES = 50;

export class FeedParseError extends Error {}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * The UTC instant of an iCalendar time. Zoned times use the feed's VTIMEZONE (ical.js resolves it
 * from the calendar); a TZID without a VTIMEZONE that is an IANA name is resolved by the runtime;
 * floating times are read as UTC.
 */
function toInstant(time: Time, tzid: string | null): Date {
  const zone = time.zone;
  if (zone && zone !== ICAL.Timezone.localTimezone) {
    return new Date(time.toUnixTime() * 1000);
  }
  const wallZone = tzid && isIanaTimeZone(tzid) ? tzid : 'UTC';
  const base = zonedTimeToUtc(`${String(time.year).padStart(4, '0')}-${pad(time.month)}-${pad(time.day)}`, `${pad(time.hour)}:${pad(time.minute)}`, wallZone);
  return new Date(base.getTime() + time.second * 1000);
}

function text(component: Component, name: string): string | null {
  const value = component.getFirstPropertyValue(name);
  if (value === null || value === undefined) return null;
  return cut(String(value), Number.MAX_SAFE_INTEGER);
}

const NUL = String.fromCharCode(0);

/**
 * Text as a booking keeps it: NUL dropped (PostgreSQL refuses it), trimmed, at most `max` characters;
 * empty → null. Read once per VEVENT (see eventText), so a long text costs its length once.
 */
function cut(value: string, max: number): string | null {
  const clean = (value.includes(NUL) ? value.split(NUL).join('') : value).trim();
  return clean.length === 0 ? null : clean.slice(0, max);
}

function person(property: InstanceType<typeof ICAL.Property>, limits: FeedTextLimits): Person {
  const value = String(property.getFirstValue() ?? '');
  // One character over the limit: a booking drops an e-mail that long rather than cutting it.
  const email = /^mailto:/i.test(value) ? cut(value.replace(/^mailto:/i, ''), limits.attendeeEmail + 1) : null;
  const cn = property.getParameter('cn');
  return { name: typeof cn === 'string' ? cut(cn, limits.attendeeName) : null, email };
}

function tzidOf(component: Component, name: string): string | null {
  const tzid = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : null;
}

/** What every occurrence of one VEVENT (a series or an override) says, read and cut once. */
interface EventText {
  readonly uid: string;
  readonly summary: string | null;
  readonly location: string | null;
  readonly status: string | null;
  readonly transparent: boolean;
  readonly contact: Person | null;
  /** Characters of the texts but the UID (an occurrence's UID is its series'), for the result's bound. */
  readonly size: number;
}

function eventText(component: Component, limits: FeedTextLimits): EventText {
  const property = (name: string) => String(component.getFirstPropertyValue(name) ?? '');
  const summary = cut(property('summary'), limits.title);
  const location = cut(property('location'), limits.location);
  const status = cut(property('status'), 20)?.toUpperCase() ?? null;
  const transparent = cut(property('transp'), 20)?.toUpperCase() === 'TRANSPARENT';
  // The organizer, else the first attendee: the one person an imported booking is for.
  const contactProperty = component.getFirstProperty('organizer') ?? component.getFirstProperty('attendee');
  const contact = contactProperty ? person(contactProperty, limits) : null;
  const uid = text(component, 'uid') ?? '';
  const size = (summary?.length ?? 0) + (location?.length ?? 0) + (contact?.name?.length ?? 0) + (contact?.email?.length ?? 0);
  return { uid, summary, location, status, transparent, contact, size };
}

/**
 * Parses an iCalendar (RFC 5545) feed and returns every occurrence that starts within
 * [rangeStart, rangeEnd): RRULE/RDATE/EXDATE expanded, RECURRENCE-ID overrides applied.
 * Events that cannot be read (no DTSTART, broken rules, a UID over MAX_FEED_UID_LENGTH) come back as
 * `invalid` candidates. What it hands back is bounded: text cut to `limits`, only the contact of each
 * occurrence (not every attendee), at most MAX_OCCURRENCES occurrences and MAX_RESULT_CHARS of text.
 */
export function parseIcsFeed(
  source: string,
  rangeStart: Date,
  rangeEnd: Date,
  options: { limits: FeedTextLimits; cpuMs?: () => number },
): FeedOccurrence[] {
  const { limits, cpuMs = processCpuMs } = options;
  const deadline = cpuMs() + MAX_PARSE_MS;
  let calendar: Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(source) as unknown[]);
  } catch {
    // ical.js's message quotes the offending line: never echo feed bytes back.
    throw new FeedParseError('not an iCalendar feed: it could not be parsed');
  }
  if (calendar.name !== 'vcalendar') throw new FeedParseError('not an iCalendar feed: no VCALENDAR');
  sanitizeTimezones(calendar);

  const occurrences: FeedOccurrence[] = [];
  const invalid = (uid: string): FeedOccurrence => ({
    uid,
    recurrenceId: null,
    summary: null,
    location: null,
    start: rangeStart,
    end: rangeStart,
    allDay: false,
    status: null,
    transparent: false,
    contact: null,
  });

  const vevents = calendar.getAllSubcomponents('vevent');
  const exceptionsByUid = new Map<string, Component[]>();
  const masters: Component[] = [];
  for (const vevent of vevents) {
    const uid = text(vevent, 'uid') ?? '';
    // Skipped whole, before any expansion: one `invalid` for the event.
    if (uid.length > MAX_FEED_UID_LENGTH) {
      occurrences.push(invalid(''));
      continue;
    }
    if (vevent.hasProperty('recurrence-id')) {
      const overrides = exceptionsByUid.get(uid);
      if (overrides) overrides.push(vevent);
      else exceptionsByUid.set(uid, [vevent]);
    } else {
      masters.push(vevent);
    }
  }

  // Every occurrence of a VEVENT shares its text: read and cut once per component.
  const texts = new Map<Component, EventText>();
  const textOf = (component: Component): EventText => {
    let found = texts.get(component);
    if (!found) texts.set(component, (found = eventText(component, limits)));
    return found;
  };
  const describe = (event: IcalEvent, item: IcalEvent, start: Time, end: Time, recurrenceId: Date | null): FeedOccurrence => {
    const component = item.component;
    const tzid = tzidOf(component, 'dtstart') ?? tzidOf(event.component, 'dtstart');
    const { summary, location, status, transparent, contact } = textOf(component);
    return {
      uid: textOf(event.component).uid,
      recurrenceId,
      summary,
      location,
      start: toInstant(start, tzid),
      end: toInstant(end, tzidOf(component, 'dtend') ?? tzid),
      allDay: start.isDate,
      status,
      transparent,
      contact,
    };
  };
  let resultChars = 0;
  const push = (occurrence: FeedOccurrence, component: Component) => {
    if (occurrence.start.getTime() < rangeStart.getTime() || occurrence.start.getTime() >= rangeEnd.getTime()) return;
    occurrences.push(occurrence);
    if (occurrences.length > MAX_OCCURRENCES) throw new FeedParseError(`the feed has more than ${MAX_OCCURRENCES} occurrences in range`);
    resultChars += occurrence.uid.length + textOf(component).size;
    if (resultChars > MAX_RESULT_CHARS) throw new FeedParseError(`the feed's events hold more than ${MAX_RESULT_CHARS} characters of text in range`);
  };

  let steps = 0;
  const step = () => {
    steps++;
    if (steps > MAX_ITERATIONS) throw new FeedParseError(`the feed's recurrences take more than ${MAX_ITERATIONS} steps to expand`);
    if (steps % 1024 === 0 && cpuMs() > deadline) throw new FeedParseError('the feed takes too long to read');
  };

  for (const master of masters) {
    const uid = text(master, 'uid') ?? '';
    let event: IcalEvent;
    try {
      if (!master.hasProperty('dtstart')) throw new Error('no DTSTART');
      event = new ICAL.Event(master, { strictExceptions: true, exceptions: exceptionsByUid.get(uid) ?? [] });
      exceptionsByUid.delete(uid);
      if (!event.isRecurring()) {
        const start = event.startDate;
        const end = event.endDate;
        push(describe(event, event, start, end, null), master);
        continue;
      }
      const iterator = event.iterator();
      for (let next = iterator.next(); next; next = iterator.next()) {
        step();
        const details = event.getOccurrenceDetails(next);
        const recurrenceId = toInstant(details.recurrenceId, tzidOf(master, 'dtstart'));
        const occurrence = describe(event, details.item, details.startDate, details.endDate, recurrenceId);
        // The series is in start order; stop once both the original and the (moved) start are past the range.
        if (recurrenceId.getTime() >= rangeEnd.getTime() && occurrence.start.getTime() >= rangeEnd.getTime()) {
          // A moved occurrence may land in range although its original slot is later: exceptions are checked below.
          break;
        }
        push(occurrence, details.item.component);
      }
      // Overrides whose original slot lies past where iteration stopped but whose new time is in range.
      for (const exception of Object.values(event.exceptions as unknown as Record<string, IcalEvent>)) {
        const recurrenceId = toInstant(exception.recurrenceId, tzidOf(exception.component, 'recurrence-id') ?? tzidOf(master, 'dtstart'));
        if (recurrenceId.getTime() < rangeEnd.getTime()) continue;
        push(describe(event, exception, exception.startDate, exception.endDate, recurrenceId), exception.component);
      }
    } catch (error) {
      if (error instanceof FeedParseError) throw error;
      occurrences.push(invalid(uid));
    }
  }

  if (cpuMs() > deadline) throw new FeedParseError('the feed takes too long to read');
  // Overrides of a series that is not in the feed: import them as one-off events.
  for (const [uid, orphans] of exceptionsByUid) {
    for (const orphan of orphans) {
      try {
        const event = new ICAL.Event(orphan);
        const recurrenceId = toInstant(event.recurrenceId, tzidOf(orphan, 'recurrence-id'));
        push(describe(event, event, event.startDate, event.endDate, recurrenceId), orphan);
      } catch {
        occurrences.push(invalid(uid));
      }
    }
  }
  return occurrences;
}

/**
 * A VTIMEZONE is the feed's own description of a zone, and ical.js expands its observances from their
 * DTSTART on every use: a `RRULE:FREQ=MINUTELY` observance would cost gigabytes. Real zones have a few
 * observances, each at most yearly on one month and one weekday or a week of month days, starting
 * after 1600 (Outlook writes 1601); a feed whose zone does anything else is refused before any of it is expanded.
 */
function sanitizeTimezones(calendar: Component): void {
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
    const observances = [...vtimezone.getAllSubcomponents('standard'), ...vtimezone.getAllSubcomponents('daylight')];
    if (observances.length > MAX_TIMEZONE_OBSERVANCES || !observances.every(isRealObservance)) {
      throw new FeedParseError('the feed defines a time zone with rules no real zone uses');
    }
  }
}

function isRealObservance(observance: Component): boolean {
  const start = observance.getFirstPropertyValue('dtstart') as { year?: unknown } | null;
  if (!start || typeof start.year !== 'number' || start.year < 1600) return false;
  if (observance.getAllProperties('rdate').length > MAX_TIMEZONE_OBSERVANCES) return false;
  return observance.getAllProperties('rrule').every((property) => {
    const rule = property.getFirstValue() as { freq?: unknown; parts?: Record<string, unknown[]> } | null;
    if (!rule || rule.freq !== 'YEARLY') return false;
    const parts = rule.parts ?? {};
    return Object.entries(parts).every(([name, values]) => {
      const count = Array.isArray(values) ? values.length : 1;
      if (name === 'BYMONTH' || name === 'BYDAY' || name === 'BYSETPOS') return count <= 1;
      if (name === 'BYMONTHDAY') return count <= 7;
      if (name === 'INTERVAL') return true;
      return false;
    });
  });
}
