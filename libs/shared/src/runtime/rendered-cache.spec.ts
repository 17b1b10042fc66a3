import { RenderedCache } from './rendered-cache';

describe('RenderedCache', () => {
  const text = (bytes: number, fill = 'x') => fill.repeat(bytes);

  it('renders a feed once and serves it from memory after that', async () => {
    const cache = new RenderedCache(1_000);
    let renders = 0;
    const render = async () => {
      renders += 1;
      return text(100);
    };
    expect((await cache.get('"a"', render)).length).toBe(100);
    expect((await cache.get('"a"', render)).length).toBe(100);
    expect(renders).toBe(1);
  });

  it('shares one rendering between concurrent requests, and keeps nothing from a failed one', async () => {
    const cache = new RenderedCache(1_000);
    let renders = 0;
    const slow = async () => {
      renders += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return text(10);
    };
    await Promise.all([cache.get('"a"', slow), cache.get('"a"', slow), cache.get('"a"', slow)]);
    expect(renders).toBe(1);
    await expect(cache.get('"b"', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect((await cache.get('"b"', async () => text(5))).length).toBe(5);
  });

  it('stays within its bytes: the least recently used feeds go first, an oversized one is not kept', async () => {
    const cache = new RenderedCache(300, 150);
    await cache.get('"a"', async () => text(100, 'a'));
    await cache.get('"b"', async () => text(100, 'b'));
    await cache.get('"c"', async () => text(100, 'c'));
    await cache.get('"a"', async () => 'never rendered'); // a is now the most recent
    await cache.get('"d"', async () => text(100, 'd')); // b goes
    expect(cache.size).toEqual({ entries: 3, bytes: 300 });
    expect((await cache.get('"b"', async () => 'rendered again')).toString()).toBe('rendered again');
    expect((await cache.get('"a"', async () => 'rendered again')).toString()).toBe(text(100, 'a'));
    expect((await cache.get('"huge"', async () => text(200))).length).toBe(200);
    expect(cache.size.bytes).toBeLessThanOrEqual(300);
    expect((await cache.get('"huge"', async () => 'rendered again')).toString()).toBe('rendered again');
  });

  it('renders many keys with one call for the missing ones, in the order asked, sharing renderings under way', async () => {
    const cache = new RenderedCache(1_000);
    const calls: string[][] = [];
    const render = async (missing: string[]) => {
      calls.push(missing);
      await new Promise((resolve) => setImmediate(resolve));
      return new Map(missing.map((key) => [key, `<${key}>`]));
    };
    await cache.get('b', async () => '<b>');
    const [first, second] = await Promise.all([cache.getMany(['a', 'b', 'c'], render), cache.getMany(['c', 'd', 'a'], render)]);
    expect(first.map(String)).toEqual(['<a>', '<b>', '<c>']);
    expect(second.map(String)).toEqual(['<c>', '<d>', '<a>']);
    expect(calls).toEqual([['a', 'c'], ['d']]);
    expect((await cache.getMany(['a', 'b', 'c', 'd'], render)).map(String)).toEqual(['<a>', '<b>', '<c>', '<d>']);
    expect(calls).toHaveLength(2);
    expect(String((await cache.getMany(['e'], async () => new Map()))[0])).toBe('');
    await expect(cache.getMany(['f', 'a'], () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect((await cache.getMany(['f'], render)).map(String)).toEqual(['<f>']);
  });
});
