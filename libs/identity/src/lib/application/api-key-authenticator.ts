import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, Clock } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { API_KEY_PATTERN, hashApiKey } from '../domain/api-key-secret';
import { ApiPrincipal } from '../domain/principal';
import { Scope } from '../domain/scopes';
import { API_KEY_BY_HASH_SQL, TOUCH_API_KEY_SQL } from '../infrastructure/api-key-queries';

interface KeyRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  scopes: Scope[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

interface CacheEntry {
  row: KeyRow | null;
  loadedAt: number;
}

const CACHE_MAX_ENTRIES = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Verifies bearer keys. Lookups are cached for a few seconds (API_KEY_CACHE_SECONDS) so the hot path
 * costs one hash; revocation through this process is immediate, through another within that time.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly logger = new Logger('ApiKeys');
  private readonly cache = new Map<string, CacheEntry>();
  private readonly ttlMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.ttlMs = config.apiKeyCacheSeconds * 1000;
  }

  async authenticate(authorization: string | undefined): Promise<ApiPrincipal | null> {
    if (!authorization) return null;
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match || !API_KEY_PATTERN.test(match[1]!)) return null;
    const hash = hashApiKey(match[1]!);
    const now = this.clock.now();
    const row = await this.lookup(hash, now.getTime());
    if (!row || row.revoked_at || (row.expires_at && row.expires_at.getTime() <= now.getTime())) return null;
    this.touch(row, now);
    return { organizationId: row.organization_id, apiKeyId: row.id, userId: row.user_id, scopes: row.scopes };
  }

  forget(hash: string): void {
    this.cache.delete(hash);
  }

  private async lookup(hash: string, nowMs: number): Promise<KeyRow | null> {
    const cached = this.cache.get(hash);
    if (cached && nowMs - cached.loadedAt < this.ttlMs) return cached.row;
    const rows: KeyRow[] = await this.dataSource.query(API_KEY_BY_HASH_SQL, [hash]);
    const row = rows[0] ?? null;
    if (this.ttlMs > 0) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { row, loadedAt: nowMs });
    }
    return row;
  }

  /** Records use at most once a minute per key, off the request path. */
  private touch(row: KeyRow, now: Date): void {
    if (row.last_used_at && now.getTime() - row.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
    row.last_used_at = now;
    this.dataSource
      .query(TOUCH_API_KEY_SQL, [row.id, now])
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not record API key use'));
  }
}
