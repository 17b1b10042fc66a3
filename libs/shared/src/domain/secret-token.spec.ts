import { createHash } from 'node:crypto';
import { findBySecretToken, secretHash, secretToken, secretTokenPattern } from './secret-token';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('secret tokens', () => {
  it('makes base62 tokens of the asked length, and stores only their SHA-256 in hex', () => {
    const token = secretToken(32);
    expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(secretToken(32)).not.toBe(token);
    expect(secretHash(token)).toBe(sha256(token));
  });

  it.each<[string, string, number, string, boolean]>([
    ['no prefix', '', 32, 'a'.repeat(32), true],
    ['no prefix, one short', '', 32, 'a'.repeat(31), false],
    ['no prefix, one long', '', 32, 'a'.repeat(33), false],
    ['a prefix', 'bkt_', 32, `bkt_${'Z9'.repeat(16)}`, true],
    ['a prefix missing', 'bkt_', 32, 'Z9'.repeat(16), false],
    ['a prefix taken literally', 'a.b', 4, 'axb1234', false],
    ['a character outside base62', '', 4, 'ab-c', false],
    ['a trailing newline', '', 4, 'abcd\n', false],
  ])('shape with %s', (_name, prefix, length, token, matches) => {
    expect(secretTokenPattern(prefix, length).test(token)).toBe(matches);
  });

  describe('findBySecretToken', () => {
    const shape = secretTokenPattern('bkt_');
    const token = `bkt_${secretToken(32)}`;

    it('looks a well-formed token up once, by its hash, and gives back what the lookup found', async () => {
      const asked: string[] = [];
      const found = await findBySecretToken(token, shape, async (hash) => (asked.push(hash), { id: 'b1' }));
      expect(found).toEqual({ id: 'b1' });
      expect(asked).toEqual([sha256(token)]);
    });

    it('answers an unknown token null after the same lookup', async () => {
      const asked: string[] = [];
      expect(await findBySecretToken(`bkt_${secretToken(32)}`, shape, async (hash) => (asked.push(hash), undefined))).toBeNull();
      expect(await findBySecretToken(`bkt_${secretToken(32)}`, shape, async (hash) => (asked.push(hash), null))).toBeNull();
      expect(asked).toHaveLength(2);
    });

    it.each<[string, unknown]>([
      ['the wrong shape', token.slice(0, -1)],
      ['another prefix', token.replace('bkt_', 'bkx_')],
      ['a huge string', `bkt_${'a'.repeat(100_000)}`],
      ['a number', 42],
      ['an array', [token]],
      ['nothing', undefined],
    ])('opens nothing for %s, without a lookup', async (_name, given) => {
      let lookups = 0;
      expect(await findBySecretToken(given, shape, async () => (lookups++, { id: 'b1' }))).toBeNull();
      expect(lookups).toBe(0);
    });
  });
});
