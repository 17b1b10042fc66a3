import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, Clock } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { ApiKeyCredential, isApiKeyUsable } from '../domain/api-key';
import { API_KEY_PATTERN, hashApiKey, PUBLISHABLE_KEY_PATTERN } from '../domain/api-key-secret';
import { ApiPrincipal } from '../domain/principal';
import { ApiKeyRepository } from '../infrastructure/api-key.repository';

interface CacheEntry {
  key: ApiKeyCredential | null;
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
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.ttlMs = config.apiKeyCacheSeconds * 1000;
  }

  async authenticate(authorization: string | undefined): Promise<ApiPrincipal | null> {
    if (!authorization) return null;
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match || !API_KEY_PATTERN.test(match[1]!)) return null;
    const key = await this.usableKey(match[1]!);
    if (!key) return null;
    return {
      organizationId: key.organizationId,
      apiKeyId: key.id,
      apiKeyName: key.name,
      userId: key.userId,
      scopes: key.scopes,
      kind: key.kind,
      allowedOrigins: key.allowedOrigins,
    };
  }

  /**
   * The usable publishable key a public address names (`?key=alm_pub_…`); null for anything else:
   * unknown, revoked, expired, or a secret key (which must never travel in a URL nor open a public
   * address, so it is not even looked up).
   */
  async publishableKey(secret: string): Promise<ApiKeyCredential | null> {
    if (!PUBLISHABLE_KEY_PATTERN.test(secret)) return null;
    const key = await this.usableKey(secret);
    return key?.kind === 'publishable' ? key : null;
  }

  /** The key behind a well-formed secret when it may be used now; its use is recorded. */
  private async usableKey(secret: string): Promise<ApiKeyCredential | null> {
    const now = this.clock.now();
    const key = await this.lookup(hashApiKey(secret), now.getTime());
    if (!key || !isApiKeyUsable(key, now)) return null;
    this.touch(key, now);
    return key;
  }

  forget(hash: string): void {
    this.cache.delete(hash);
  }

  private async lookup(hash: string, nowMs: number): Promise<ApiKeyCredential | null> {
    const cached = this.cache.get(hash);
    if (cached && nowMs - cached.loadedAt < this.ttlMs) return cached.key;
    const key = await this.keys.findCredentialByHash(this.dataSource.manager, hash);
    if (this.ttlMs > 0) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { key, loadedAt: nowMs });
    }
    return key;
  }

  /** Records use at most once a minute per key, off the request path. */
  private touch(key: ApiKeyCredential, now: Date): void {
    if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    key.lastUsedAt = now;
    this.keys.touch(this.dataSource.manager, key.id, now).catch((error: unknown) => this.logger.warn({ err: error }, 'could not record API key use'));
  }
}
