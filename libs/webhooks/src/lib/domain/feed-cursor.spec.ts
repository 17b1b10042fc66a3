import { CURSOR_PATTERN, decodeCursor, encodeCursor } from './feed-cursor';

describe('change feed cursors', () => {
  it('round-trips a position, as plain text the document can describe', () => {
    const position = { txId: '123456789', seq: '42' };
    expect(encodeCursor(position)).toBe('123456789.42');
    expect(encodeCursor(position)).toMatch(new RegExp(CURSOR_PATTERN));
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('takes every cursor the pattern allows: a position past every event reads as the last one there can be', () => {
    expect(decodeCursor('9999999999999999999.0')).toEqual({ txId: '9223372036854775807', seq: '0' });
    expect(decodeCursor('0.0')).toEqual({ txId: '0', seq: '0' });
  });

  it('still takes the base64url cursors given out before', () => {
    expect(decodeCursor(Buffer.from('123456789.42').toString('base64url'))).toEqual({ txId: '123456789', seq: '42' });
  });

  it.each([
    '',
    'not a cursor!',
    '1.2.3',
    '1.',
    '.1',
    '12345678901234567890.1',
    '١.٢',
    Buffer.from('1.2.3').toString('base64url'),
    Buffer.from('a.1').toString('base64url'),
    Buffer.from('99999999999999999999.1').toString('base64url'),
    'x'.repeat(100),
  ])('refuses %j', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
    expect(new RegExp(CURSOR_PATTERN, 'u').test(cursor)).toBe(false);
  });
});
