import { decodeCursor, encodeCursor } from './feed-cursor';

describe('change feed cursors', () => {
  it('round-trips a position', () => {
    const position = { txId: '123456789', seq: '42' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each([
    '',
    'not base64!',
    Buffer.from('1.2.3').toString('base64url'),
    Buffer.from('a.1').toString('base64url'),
    Buffer.from('99999999999999999999.1').toString('base64url'),
    'x'.repeat(100),
  ])('refuses %j', (cursor) => expect(decodeCursor(cursor)).toBeNull());
});
