import { isBookingMetadata, metadataProblems, reservedMetadataKeyProblems } from './booking-metadata';

describe('booking metadata', () => {
  it.each([
    [{}, true],
    [{ source: 'web', count: 3, vip: true, note: null }, true],
    [Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])), true],
    [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])), false],
    [{ ['k'.repeat(40)]: 1 }, true],
    [{ ['k'.repeat(41)]: 1 }, false],
    [{ '': 1 }, false],
    [{ toString: 'x', valueOf: 1 }, true],
    [JSON.parse('{"__proto__": 1}'), false],
    [{ constructor: 'x' }, false],
    [{ prototype: 'x' }, false],
    [{ s: 'x'.repeat(500) }, true],
    [{ s: 'x'.repeat(501) }, false],
    [{ nested: { a: 1 } }, false],
    [{ list: [1, 2] }, false],
    [{ inf: Infinity }, false],
    [{ nan: NaN }, false],
    [null, false],
    [[], false],
    ['text', false],
    [42, false],
  ])('%j valid: %s', (value, valid) => {
    expect(isBookingMetadata(value)).toBe(valid);
    expect(metadataProblems(value).length === 0).toBe(valid);
  });

  it('names the offending key', () => {
    expect(metadataProblems({ ok: 1, bad: { a: 1 } })).toEqual([expect.stringContaining('"bad"')]);
    expect(metadataProblems(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])))).toEqual([
      'must have at most 50 keys (got 51)',
    ]);
  });
});

describe('reserved metadata keys', () => {
  it('names each reserved key present', () => {
    expect(reservedMetadataKeyProblems(JSON.parse('{"__proto__": 1, "constructor": 2, "ok": 3}'))).toEqual([
      'key "__proto__" is reserved',
      'key "constructor" is reserved',
    ]);
    expect(reservedMetadataKeyProblems({ ok: 1 })).toEqual([]);
    expect(reservedMetadataKeyProblems(null)).toEqual([]);
    expect(reservedMetadataKeyProblems(['constructor'])).toEqual([]);
  });
});
