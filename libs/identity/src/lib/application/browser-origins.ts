import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, Clock } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { canonicalOrigin } from '../domain/api-key-kind';
import { ApiKeyRepository } from '../infrastructure/api-key.repository';

const CACHE_MAX_ENTRIES = 10_000;

/**
 * Which browser origins a CORS preflight is answered for. A preflight carries no key, so the question
 * is whether any usable publishable key, of any organization, lists the origin. The answer is kept
 * for API_KEY_CACHE_SECONDS like a key lookup (at most 10,000 origins, the oldest dropped first), so
 * a page's repeated preflights cost one indexed query; a key created or revoked through this process
 * applies at once, through another within that time.
 */
@Injectable()
export class BrowserOrigins {
  private readonly cache = new Map<string, { allowed: boolean; loadedAt: number }>();
  private readonly ttlMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.ttlMs = config.apiKeyCacheSeconds * 1000;
  }

  /**
   * Whether a preflight from `origin` gets CORS headers. Browsers send an origin in its canonical
   * form; anything else (absent, `null`, a path, a wrong case) names no key's origin and costs no query.
   */
  async allowsPreflight(origin: string | undefined): Promise<boolean> {
    if (origin === undefined || canonicalOrigin(origin) !== origin) return false;
    const now = this.clock.now();
    const cached = this.cache.get(origin);
    if (cached && now.getTime() - cached.loadedAt < this.ttlMs) return cached.allowed;
    const allowed = await this.keys.isOriginAllowed(this.dataSource.manager, origin, now);
    if (this.ttlMs > 0) {
      this.cache.delete(origin);
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(origin, { allowed, loadedAt: now.getTime() });
    }
    return allowed;
  }

  /** After a publishable key is created or revoked here: ask the database again. */
  forget(): void {
    this.cache.clear();
  }
}
