/**
 * Rendered calendar feeds by ETag, bounded in memory: an unchanged feed is served without reading its
 * bookings again or rendering them. The ETag names exactly what the feed shows (which bookings, their
 * versions, the schedule's name), so an entry is never stale, only unused: the least recently used
 * ones go first once the entries pass `maxBytes`. Concurrent requests for a feed not cached yet
 * share one rendering.
 */
export class RenderedFeedCache {
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Buffer>();
  private readonly rendering = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    /** A body larger than this is served but not kept (one feed may not push out all the others). */
    readonly maxEntryBytes = Math.floor(maxBytes / 4),
  ) {}

  async get(etag: string, render: () => Promise<string>): Promise<Buffer> {
    const cached = this.entries.get(etag);
    if (cached) {
      this.entries.delete(etag);
      this.entries.set(etag, cached);
      return cached;
    }
    const pending = this.rendering.get(etag);
    if (pending) return pending;
    const rendered = render()
      .then((text) => {
        const body = Buffer.from(text, 'utf8');
        this.keep(etag, body);
        return body;
      })
      .finally(() => this.rendering.delete(etag));
    this.rendering.set(etag, rendered);
    return rendered;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private keep(etag: string, body: Buffer): void {
    if (body.length > this.maxEntryBytes) return;
    this.entries.set(etag, body);
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.length;
    }
  }
}
