import { SaxesParser } from 'saxes';
import type { ContentBlock } from './content-block';
import { AtomFeed, postUrl, renderAtomFeed, renderBlocks, xmlText } from './atom-feed';

/** Whether a strict XML 1.0 parser takes the document. */
function wellFormed(xml: string): string | null {
  const parser = new SaxesParser({ xmlns: true });
  let failure: string | null = null;
  parser.on('error', (error) => (failure ??= error.message));
  parser.write(xml).close();
  return failure;
}

const feed = (entries: Partial<AtomFeed['entries'][number]>[] = [], extra: Partial<AtomFeed> = {}): AtomFeed => ({
  id: 'urn:uuid:0194a7a0-0000-7000-8000-000000000001',
  title: 'Blog',
  selfUrl: 'https://api.example/public/v1/posts.atom?key=k&x=1',
  siteUrl: null,
  fallbackUpdated: new Date('2026-01-01T00:00:00.000Z'),
  entries: entries.map((e, i) => ({
    id: `0194a7a0-0000-7000-8000-00000000000${i}`,
    title: 'T',
    slug: 's',
    excerpt: null,
    publishedAt: new Date('2026-02-01T00:00:00.000Z'),
    updatedAt: new Date('2026-01-15T00:00:00.000Z'),
    authorName: 'A',
    tags: [],
    content: Buffer.alloc(0),
    ...e,
  })),
  ...extra,
});

describe('Atom rendering', () => {
  it.each<[string, string, string]>([
    ['markup and entities', `<a href="x">&amp;</a>`, '&lt;a href=&quot;x&quot;&gt;&amp;amp;&lt;/a&gt;'],
    ['a CDATA end', ']]>', ']]&gt;'],
    ['C0 controls but tab, LF, CR', 'a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\th\ni\rj', 'abcdefg\th\ni\rj'],
    ['U+FFFE and U+FFFF', 'a\uFFFEb\uFFFFc', 'abc'],
    ['unpaired surrogates, keeping pairs', 'a\uD800b\uDC00c😀\uDBFF', 'abc😀'],
    ['right-to-left marks and scripts', '\u202Eשלום مرحبا', '\u202Eשלום مرحبا'],
  ])('escapes %s', (_why, input, expected) => {
    expect(xmlText(input)).toBe(expected);
    expect(wellFormed(`<x a="${xmlText(input)}">${xmlText(input)}</x>`)).toBeNull();
  });

  it('renders blocks as HTML escaped once more for XML', () => {
    const blocks: ContentBlock[] = [
      { type: 'heading', level: 3, text: 'A & B' },
      { type: 'paragraph', text: `<i>it's</i>` },
      { type: 'image', url: 'https://x.example/a.png?a=1&b=2', alt: 'say "hi"' },
      { type: 'list', items: ['x', '<y>'] },
      { type: 'quote', text: 'q', author: 'Ann & Bob' },
    ];
    expect(renderBlocks(blocks)).toBe(
      '&lt;h3&gt;A &amp;amp; B&lt;/h3&gt;' +
        '&lt;p&gt;&amp;lt;i&amp;gt;it&amp;#39;s&amp;lt;/i&amp;gt;&lt;/p&gt;' +
        '&lt;img src=&quot;https://x.example/a.png?a=1&amp;amp;b=2&quot; alt=&quot;say &amp;quot;hi&amp;quot;&quot;&gt;' +
        '&lt;ul&gt;&lt;li&gt;x&lt;/li&gt;&lt;li&gt;&amp;lt;y&amp;gt;&lt;/li&gt;&lt;/ul&gt;' +
        '&lt;blockquote&gt;&lt;p&gt;q&lt;/p&gt;&lt;footer&gt;Ann &amp;amp; Bob&lt;/footer&gt;&lt;/blockquote&gt;',
    );
  });

  it('dates the feed by its newest change, an entry by the later of its write and its publication', () => {
    const xml = renderAtomFeed(feed([{}, { updatedAt: new Date('2026-03-01T00:00:00.000Z') }])).toString();
    expect(wellFormed(xml)).toBeNull();
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:uuid:0194a7a0-0000-7000-8000-000000000001</id><title type="text">Blog</title><updated>2026-03-01T00:00:00.000Z</updated>');
    expect(xml).toContain('<published>2026-02-01T00:00:00.000Z</published><updated>2026-02-01T00:00:00.000Z</updated>');
    expect(xml).toContain('href="https://api.example/public/v1/posts.atom?key=k&amp;x=1"');
    expect(renderAtomFeed(feed()).toString()).toContain('<updated>2026-01-01T00:00:00.000Z</updated>');
  });

  it('writes each entry\'s rendered content as it is, in UTF-8, inside its content element', () => {
    const blocks: ContentBlock[] = [{ type: 'quote', text: ']]> 😀 שלום', author: 'Zoë' }];
    const xml = renderAtomFeed(
      feed([{ content: Buffer.from(renderBlocks(blocks), 'utf8') }, { title: 'Ω', content: Buffer.from(renderBlocks([{ type: 'paragraph', text: 'b' }])) }]),
    ).toString('utf8');
    expect(wellFormed(xml)).toBeNull();
    expect(xml).toContain(
      '<content type="html">&lt;blockquote&gt;&lt;p&gt;]]&amp;gt; 😀 שלום&lt;/p&gt;&lt;footer&gt;Zoë&lt;/footer&gt;&lt;/blockquote&gt;</content></entry><entry>',
    );
    expect(xml).toContain('<title type="text">Ω</title>');
    expect(xml.endsWith('<content type="html">&lt;p&gt;b&lt;/p&gt;</content></entry></feed>\n')).toBe(true);
  });

  it('joins the site URL and the slug with one slash', () => {
    expect(postUrl('https://a.example', 'x')).toBe('https://a.example/x');
    expect(postUrl('https://a.example/blog//', 'x')).toBe('https://a.example/blog/x');
  });
});
