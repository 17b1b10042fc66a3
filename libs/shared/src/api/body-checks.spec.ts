import { findBodyProblems, MAX_BODY_VALUES } from './body-checks';

const check = (json: string) => findBodyProblems(Buffer.from(json));
const problemsOf = (value: unknown) => check(JSON.stringify(value));

/** An object of `count` members k0, k1, … */
function members(count: number): Record<string, number> {
  const object: Record<string, number> = {};
  for (let i = 0; i < count; i++) object[`k${i}`] = i;
  return object;
}

describe('findBodyProblems (on the bytes, before parsing)', () => {
  it('finds nothing in ordinary bodies, strings holding structural characters and escapes included', () => {
    for (const body of [
      { title: 'a "quoted" {brace} [bracket], colon: yes', n: -1.5e3, ok: true, none: null },
      [1, 'two', { three: [3] }, [], {}],
      'text',
      42,
      { 'é\u00e9': '😀 \ud83d\ude00', 'esc\\aped\n': '\t\\"' },
    ]) {
      expect(problemsOf(body)).toEqual({ errors: [], shape: false });
    }
  });

  it('names NUL characters, unpaired surrogates and reserved keys by path, in document order', () => {
    const json = '{"attendee":{"name":"A\\u0000","notes":"\\ud800x"},"content":[{"type":"p"},{"text":"\\udc00"}],"metadata":{"__proto__":1,"a\\u0000":2,"\\u0063onstructor":3}}';
    expect(check(json)).toEqual({
      shape: false,
      errors: [
        { field: 'attendee.name', message: 'must not contain NUL characters' },
        { field: 'attendee.notes', message: 'must not contain unpaired surrogates' },
        { field: 'content[1].text', message: 'must not contain unpaired surrogates' },
        { field: 'metadata', message: 'key "__proto__" is reserved' },
        { field: 'metadata', message: 'keys must not contain NUL characters' },
        { field: 'metadata', message: 'key "constructor" is reserved' },
      ],
    });
    expect(check('"\\u0000"').errors).toEqual([{ field: 'body', message: 'must not contain NUL characters' }]);
    expect(check('{"prototype":1}').errors).toEqual([{ field: 'body', message: 'key "prototype" is reserved' }]);
    // A pair written as two escapes is one character; a high half before anything else is not.
    expect(check('["\\ud83d\\ude00", "\\ud83d\\n", "\\ud83d"]').errors.map((e) => e.field)).toEqual(['[1]', '[2]']);
  });

  it('reports at most 100 problems', () => {
    expect(problemsOf(new Array(500).fill('x\u0000')).errors).toHaveLength(100);
  });

  it('refuses nesting deeper than 64 levels with one error at the deepest container', () => {
    expect(check('['.repeat(64) + ']'.repeat(64))).toEqual({ errors: [], shape: false });
    expect(check('['.repeat(65) + ']'.repeat(65))).toEqual({ shape: true, errors: [{ field: '[0]'.repeat(64), message: 'must not nest deeper than 64 levels' }] });
    // Unclosed or not: the bound is met before the end.
    expect(check('['.repeat(100_000)).shape).toBe(true);
    expect(check('{"a":'.repeat(65) + '1' + '}'.repeat(65)).errors).toEqual([{ field: 'a' + '.a'.repeat(63), message: 'must not nest deeper than 64 levels' }]);
  });

  it('refuses an object of more than 1,000 members at its path, the top level as `body`', () => {
    expect(problemsOf(members(1_000))).toEqual({ errors: [], shape: false });
    expect(problemsOf(members(1_001))).toEqual({ shape: true, errors: [{ field: 'body', message: 'must not have more than 1000 members' }] });
    expect(problemsOf({ content: [{}, {}, members(1_001)] }).errors).toEqual([{ field: 'content[2]', message: 'must not have more than 1000 members' }]);
    expect(problemsOf({ 'a.b': { 'x"y': members(80_000) } }).errors).toEqual([{ field: 'a.b.x"y', message: 'must not have more than 1000 members' }]);
    // Only the first problem of a refused shape is given, whatever came before it.
    expect(problemsOf({ a: 'x\u0000', attendee: members(5_000) })).toEqual({ shape: true, errors: [{ field: 'attendee', message: 'must not have more than 1000 members' }] });
  });

  it('refuses more than 100,000 values in all, objects and arrays counted, member names not', () => {
    expect(problemsOf(new Array(MAX_BODY_VALUES - 1).fill(0)).shape).toBe(false);
    expect(problemsOf(new Array(MAX_BODY_VALUES).fill(0))).toEqual({ shape: true, errors: [{ field: 'body', message: 'must not hold more than 100000 values in all' }] });
    // 33,333 × {a: [true]} is 99,999 values; with the array holding them and the top object, 100,001.
    expect(problemsOf({ x: Array.from({ length: 33_333 }, () => ({ a: [true] })) }).shape).toBe(true);
    expect(problemsOf({ x: Array.from({ length: 33_332 }, () => ({ a: [null] })) }).shape).toBe(false);
    expect(problemsOf(Array.from({ length: 99_999 }, () => 'abc')).shape).toBe(false);
  });

  it('never throws on bytes that are not JSON (the parser refuses them afterwards)', () => {
    for (const text of ['{"a', '"\\u12', '"\\', '{:}', ']]]]', '{"a":1,,}', 'tru', '"\\ud800', '{"\\u00', '\u00ff\u0000']) {
      expect(() => check(text)).not.toThrow();
    }
  });
});
