import {
  IMPORTED_DEFAULT_ATTENDEE,
  IMPORTED_DEFAULT_TITLE,
  ImportedBooking,
  ImportedOccurrence,
  uniqueImportedBookings,
} from './imported-booking';

const START = new Date('2027-06-01T09:00:00Z');
const END = new Date('2027-06-01T10:00:00Z');

function occurrence(extra: Partial<ImportedOccurrence> = {}): ImportedOccurrence {
  return { uid: 'u@x', recurrenceId: null, title: 'Title', location: 'Room', start: START, end: END, contact: null, ...extra };
}

describe('ImportedBooking', () => {
  it('cuts text to its limits after dropping NUL and trimming, and drops an over-long e-mail', () => {
    const nul = String.fromCharCode(0);
    const b = ImportedBooking.from(
      occurrence({
        uid: `u${nul}@x`,
        title: `  a${nul}b${'t'.repeat(400)}`,
        location: `  ${'l'.repeat(400)}`,
        contact: { name: 'n'.repeat(400), email: `${'e'.repeat(320)}@x.org` },
      }),
      'Clinic',
    );
    expect(b.externalUid).toBe('u@x');
    expect(b.title).toBe(`ab${'t'.repeat(298)}`);
    expect(b.location).toBe('l'.repeat(300));
    expect(b.attendeeName).toBe('n'.repeat(300));
    expect(b.attendeeEmail).toBeNull();
    const fits = ImportedBooking.from(occurrence({ contact: { name: null, email: ` ${'e'.repeat(314)}@x.org ` } }), 'Clinic');
    expect(fits.attendeeEmail).toBe(`${'e'.repeat(314)}@x.org`);
  });

  it('defaults a missing or blank title, and an empty location to null', () => {
    expect(ImportedBooking.from(occurrence({ title: null }), 'Clinic').title).toBe(IMPORTED_DEFAULT_TITLE);
    expect(ImportedBooking.from(occurrence({ title: '   ' }), 'Clinic').title).toBe(IMPORTED_DEFAULT_TITLE);
    expect(IMPORTED_DEFAULT_TITLE).toBe('(no title)');
    expect(ImportedBooking.from(occurrence({ location: ' ' }), 'Clinic').location).toBeNull();
  });

  it("names the attendee after the contact, else their e-mail, else the integration, else 'External calendar'", () => {
    const named = (contact: ImportedOccurrence['contact'], fallback = 'Clinic') =>
      ImportedBooking.from(occurrence({ contact }), fallback);
    expect(named({ name: 'Dr Smith', email: 'smith@x.org' })).toMatchObject({ attendeeName: 'Dr Smith', attendeeEmail: 'smith@x.org' });
    expect(named({ name: null, email: 'smith@x.org' })).toMatchObject({ attendeeName: 'smith@x.org', attendeeEmail: 'smith@x.org' });
    expect(named({ name: ' ', email: null })).toMatchObject({ attendeeName: 'Clinic', attendeeEmail: null });
    expect(named(null)).toMatchObject({ attendeeName: 'Clinic', attendeeEmail: null });
    expect(named(null, '')).toMatchObject({ attendeeName: IMPORTED_DEFAULT_ATTENDEE });
  });

  it('keys occurrences by UID and recurrence instant, and keeps the first of each', () => {
    const a = ImportedBooking.from(occurrence({ recurrenceId: new Date('2027-06-01T09:00:00Z') }), 'C');
    const sameInstant = ImportedBooking.from(occurrence({ recurrenceId: '2027-06-01T11:00:00+02:00', title: 'later copy' }), 'C');
    const other = ImportedBooking.from(occurrence({ recurrenceId: '2027-06-08T09:00:00Z' }), 'C');
    const single = ImportedBooking.from(occurrence(), 'C');
    expect(a.recurrenceId).toBe('2027-06-01T09:00:00.000Z');
    expect(sameInstant.key).toBe(a.key);
    const { unique, repeated } = uniqueImportedBookings([a, sameInstant, other, single]);
    expect(unique).toEqual([a, other, single]);
    expect(repeated).toBe(1);
  });
});
