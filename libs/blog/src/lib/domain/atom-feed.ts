import type { ContentBlock } from './content-block';

/**
 * Atom (RFC 4287) for a blog's latest published posts, written by hand: the document's shape is
 * fixed and small, and the one real job, escaping, is where XML builders were far too slow for 50
 * posts of 500 blocks (measured: xmlbuilder2 dropping forbidden characters took over a second on a
 * 2.6 MB feed, fast-xml-parser's builder 50 ms, this 5–10 ms; see bench/results/feeds.md).
 *
 * Every piece of text goes through `xmlText` (or `htmlInXml` inside content): characters XML 1.0
 * forbids (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; unpaired surrogates) are dropped, and
 * `& < > "` are escaped, so no content can end an element, open a CDATA section or inject markup.
 * Content is `type="html"`: the blocks become HTML whose text is HTML-escaped, and that HTML is then
 * escaped once more as XML text (`<p>a &amp; b</p>` travels as `&lt;p&gt;a &amp;amp; b&lt;/p&gt;`).
 */

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';
export const FEED_ENTRIES = 50;

export interface AtomFeed {
  /** A permanent id (the organization's): `urn:uuid:…`. */
  readonly id: string;
  readonly title: string;
  readonly selfUrl: string;
  /** The site the posts live on, when known. */
  readonly siteUrl: string | null;
  /** When there is no entry: the organization's creation. */
  readonly fallbackUpdated: Date;
  readonly entries: readonly AtomEntry[];
}

export interface AtomEntry {
  readonly id: string;
  readonly title: string;
  readonly slug: string;
  readonly excerpt: string | null;
  readonly publishedAt: Date;
  readonly updatedAt: Date;
  readonly authorName: string;
  readonly tags: ReadonlyArray<{ readonly slug: string; readonly name: string }>;
  /**
   * The content as `renderBlocks` wrote it, in UTF-8: rendered once per version of a post and kept, so
   * a feed in which one post changed renders that post alone.
   */
  readonly content: Uint8Array;
}

/** C0 controls other than tab, LF and CR, and the two non-characters U+FFFE and U+FFFF. */
// eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
const FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g;
/** In a string that is not well-formed UTF-16: the unpaired surrogates (a pair is one code point here). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;

/** ES2024's check, in every Node this project runs on (20.19+), not yet in the compiler's library. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** The text without what XML 1.0 cannot carry. */
function xmlChars(text: string): string {
  let safe = text;
  if (!isWellFormed(safe)) safe = safe.replace(LONE_SURROGATE, '');
  FORBIDDEN.lastIndex = 0;
  return FORBIDDEN.test(safe) ? safe.replace(FORBIDDEN, '') : safe;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const XML_SPECIAL = /[&<>"]/g;

/** Text (or an attribute value in double quotes) as XML. */
export function xmlText(text: string): string {
  const safe = xmlChars(text);
  XML_SPECIAL.lastIndex = 0;
  return XML_SPECIAL.test(safe) ? safe.replace(XML_SPECIAL, (c) => XML_ESCAPES[c]!) : safe;
}

/** HTML-escaped text, then XML-escaped, in one pass: text inside `content type="html"`. */
const HTML_IN_XML_ESCAPES: Record<string, string> = { '&': '&amp;amp;', '<': '&amp;lt;', '>': '&amp;gt;', '"': '&amp;quot;', "'": '&amp;#39;' };
const HTML_SPECIAL = /[&<>"']/g;

function htmlInXml(text: string): string {
  const safe = xmlChars(text);
  HTML_SPECIAL.lastIndex = 0;
  return HTML_SPECIAL.test(safe) ? safe.replace(HTML_SPECIAL, (c) => HTML_IN_XML_ESCAPES[c]!) : safe;
}

/** An HTML tag as it travels inside XML text: `<p>` is `&lt;p&gt;`. */
const tag = (inner: string): string => `&lt;${inner}&gt;`;
const OPEN = { p: tag('p'), ul: tag('ul'), li: tag('li'), blockquote: tag('blockquote'), footer: tag('footer') };
const CLOSE = { p: tag('/p'), ul: tag('/ul'), li: tag('/li'), blockquote: tag('/blockquote'), footer: tag('/footer') };

/** The blocks as HTML, escaped for XML (the text of a `content type="html"` element). */
export function renderBlocks(blocks: readonly ContentBlock[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'heading': {
        const level = Math.min(6, Math.max(1, Math.trunc(Number(block.level)) || 1));
        out.push(tag(`h${level}`), htmlInXml(block.text), tag(`/h${level}`));
        break;
      }
      case 'paragraph':
        out.push(OPEN.p, htmlInXml(block.text), CLOSE.p);
        break;
      case 'image':
        out.push(tag(`img src=&quot;${htmlInXml(block.url)}&quot; alt=&quot;${htmlInXml(block.alt)}&quot;`));
        break;
      case 'list':
        out.push(OPEN.ul);
        for (const item of block.items) out.push(OPEN.li, htmlInXml(item), CLOSE.li);
        out.push(CLOSE.ul);
        break;
      case 'quote':
        out.push(OPEN.blockquote, OPEN.p, htmlInXml(block.text), CLOSE.p);
        if (block.author !== undefined) out.push(OPEN.footer, htmlInXml(block.author), CLOSE.footer);
        out.push(CLOSE.blockquote);
        break;
    }
  }
  return out.join('');
}

/** `{site_url}/{slug}`, with one slash between them whatever the site URL ends with. */
export function postUrl(siteUrl: string, slug: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/${slug}`;
}

const latest = (a: Date, b: Date): Date => (a.getTime() >= b.getTime() ? a : b);

/**
 * The feed document in UTF-8. Entries are written in the order given (newest first); their rendered
 * content goes in as it is, so a feed of 50 long posts costs little more than copying their bytes.
 */
export function renderAtomFeed(feed: AtomFeed): Buffer {
  const updated = feed.entries.reduce<Date | null>((max, e) => latest(max ?? e.updatedAt, latest(e.updatedAt, e.publishedAt)), null) ?? feed.fallbackUpdated;
  const parts: Uint8Array[] = [];
  let text: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>\n',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlText(feed.id)}</id>`,
    `<title type="text">${xmlText(feed.title)}</title>`,
    `<updated>${updated.toISOString()}</updated>`,
    `<author><name>${xmlText(feed.title)}</name></author>`,
    `<link rel="self" type="application/atom+xml" href="${xmlText(feed.selfUrl)}"/>`,
  ];
  if (feed.siteUrl !== null) text.push(`<link rel="alternate" type="text/html" href="${xmlText(feed.siteUrl)}"/>`);
  text.push('<generator>Almanac</generator>');
  for (const entry of feed.entries) {
    text.push(
      '<entry>',
      `<id>urn:uuid:${xmlText(entry.id)}</id>`,
      `<title type="text">${xmlText(entry.title)}</title>`,
      `<published>${entry.publishedAt.toISOString()}</published>`,
      // A scheduled post's row was last written before it went out: it is new as of its publication.
      `<updated>${latest(entry.updatedAt, entry.publishedAt).toISOString()}</updated>`,
      `<author><name>${xmlText(entry.authorName)}</name></author>`,
    );
    if (feed.siteUrl !== null) text.push(`<link rel="alternate" type="text/html" href="${xmlText(postUrl(feed.siteUrl, entry.slug))}"/>`);
    if (entry.excerpt !== null) text.push(`<summary type="text">${xmlText(entry.excerpt)}</summary>`);
    for (const t of entry.tags) text.push(`<category term="${xmlText(t.slug)}" label="${xmlText(t.name)}"/>`);
    text.push('<content type="html">');
    parts.push(Buffer.from(text.join(''), 'utf8'), entry.content);
    text = ['</content></entry>'];
  }
  text.push('</feed>\n');
  parts.push(Buffer.from(text.join(''), 'utf8'));
  return Buffer.concat(parts);
}
