import { ERASED_NAME, personErasure, scrubPayload, scrubText } from './erasure';

describe('the erasure of a person', () => {
  const erasure = personErasure('Jane.Doe+x@Example.com');
  const bookings = { records: [{ id: 'b1', name: 'Jane Doe' }], fields: { attendee_name: ERASED_NAME, attendee_email: erasure.replacementEmail, attendee_phone: null } };

  it('keeps the SHA-256 of the lowercased address, and an e-mail made of its first 12 hex digits', () => {
    expect(erasure.address).toBe('jane.doe+x@example.com');
    expect(erasure.hash).toBe('0b6542ea781224b9278a8e16ad86dace01d0e50a68d4c28ceffa991fb474861f');
    expect(erasure.replacementEmail).toBe(`erased-${erasure.hash.slice(0, 12)}@invalid`);
    expect(personErasure('JANE.DOE+X@EXAMPLE.COM')).toEqual(erasure);
  });

  it("sets a record's fields, and takes its names out of the payload that holds it", () => {
    const payload = { id: 'b1', attendee_name: 'Jane Doe', attendee_email: 'JANE.DOE+X@example.com', attendee_phone: '+33 1', metadata: { note: 'call jane doe' } };
    expect(scrubPayload(payload, erasure, [bookings])).toEqual({
      id: 'b1',
      attendee_name: ERASED_NAME,
      attendee_email: erasure.replacementEmail,
      attendee_phone: null,
      metadata: { note: `call ${ERASED_NAME}` },
    });
  });

  it('replaces the address anywhere, but a name only in payloads that hold one of the records', () => {
    const other = { id: 'b2', attendee_name: 'Jane Doe', attendee_notes: 'cc jane.doe+x@example.com' };
    expect(scrubPayload(other, erasure, [bookings])).toEqual({ id: 'b2', attendee_name: 'Jane Doe', attendee_notes: `cc ${erasure.replacementEmail}` });
    expect(scrubPayload({ id: 'b3', attendee_name: 'Jane Doe' }, erasure, [bookings])).toBeNull();
    // The address is no regular expression: its dot and plus match only themselves.
    expect(scrubPayload('janeXdoe+x@example.com', erasure, [bookings])).toBeNull();
  });

  it('scrubs texts that are JSON, and texts that are not, names only when they concern the records', () => {
    expect(scrubText(JSON.stringify({ data: { id: 'b1', attendee_name: 'Jane Doe' } }), erasure, [bookings])).toBe(
      JSON.stringify({ data: { id: 'b1', attendee_name: ERASED_NAME } }),
    );
    expect(scrubText('got Jane Doe <jane.doe+x@example.com>', erasure, [bookings], true)).toBe(`got ${ERASED_NAME} <${erasure.replacementEmail}>`);
    expect(scrubText('got Jane Doe', erasure, [bookings], false)).toBeNull();
    expect(scrubText('{"cut": "jane.doe+x@exam', erasure, [bookings])).toBeNull();
  });
});
