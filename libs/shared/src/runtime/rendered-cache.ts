/**
 * Rendered documents (or parts of one) in memory, bounded in bytes, by a key that names exactly what
 * was rendered (an ETag, or a record's id and row version): an entry is never stale, only unused, and
 * the least recently used ones go first once the entries pass `maxBytes`. Concurrent requests for a
 * key not kept yet share one rendering; nothing is kept from a failed one.
 *
 * The calendar feeds keep whole feeds by ETag; the Atom feed keeps each post's rendered content by the
 * post's row version, so a changed feed renders only the posts that changed.
 */
export class RenderedCache {
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Buffer>();
  private readonly rendering = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    /** A body larger than this is served but not kept (one document may not push out all the others). */
    readonly maxEntryBytes = Math.floor(maxBytes / 4),
  ) {}

  /** The body of `key`, rendered by `render` unless kept or being rendered. */
  async get(key: string, render: () => Promise<string>): Promise<Buffer> {
    const [body] = await this.getMany([key], async () => new Map([[key, await render()]]));
    return body!;
  }

  /**
   * The bodies of `keys`, in their order. The ones neither kept nor being rendered are rendered by one
   * call of `render` with those keys, which answers a text for each of them (a missing one is empty).
   */
  async getMany(keys: readonly string[], render: (missing: string[]) => Promise<ReadonlyMap<string, string>>): Promise<Buffer[]> {
    const missing = keys.filter((key) => !this.entries.has(key) && !this.rendering.has(key));
    if (missing.length > 0) {
      const batch = render(missing);
      for (const key of new Set(missing)) {
        const one = batch
          .then((texts) => {
            const body = Buffer.from(texts.get(key) ?? '', 'utf8');
            this.keep(key, body);
            return body;
          })
          .finally(() => this.rendering.delete(key));
        this.rendering.set(key, one);
      }
    }
    return Promise.all(keys.map((key) => this.lookup(key)));
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** A kept body (now the most recently used), or the rendering under way. */
  private lookup(key: string): Promise<Buffer> {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return Promise.resolve(kept);
    }
    return this.rendering.get(key)!;
  }

  private keep(key: string, body: Buffer): void {
    if (body.length > this.maxEntryBytes || this.entries.has(key)) return;
    this.entries.set(key, body);
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.length;
    }
  }
}
