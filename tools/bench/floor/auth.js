'use strict';
// The API's authentication work, per request: parse the bearer header, check the key's format,
// SHA-256 it, look the hash up (cached for API_KEY_CACHE_SECONDS, the same bounded map, the same
// statement on a miss), refuse revoked and expired keys, record use at most once a minute, count the
// request against the key's fixed-window rate limit and check the route's scope.

const {
  API_KEY_PATTERN,
  hashApiKey,
  FixedWindowRateLimiter,
  RATE_LIMIT_POLICY,
  RATE_LIMIT_WINDOW_SECONDS,
  rateLimitHeaders,
  API_KEY_BY_HASH_SQL,
  TOUCH_API_KEY_SQL,
} = require('./domain');

const CACHE_MAX_ENTRIES = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

class Authenticator {
  constructor(pool, { cacheSeconds, rateLimitPerMinute, log }) {
    this.pool = pool;
    this.ttlMs = cacheSeconds * 1000;
    this.cache = new Map();
    this.limiter = rateLimitPerMinute > 0 ? new FixedWindowRateLimiter(rateLimitPerMinute, RATE_LIMIT_WINDOW_SECONDS * 1000) : null;
    this.log = log;
  }

  /** The principal, or null (401). */
  async authenticate(authorization) {
    if (!authorization) return null;
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match || !API_KEY_PATTERN.test(match[1])) return null;
    const hash = hashApiKey(match[1]);
    const now = new Date();
    const row = await this.lookup(hash, now.getTime());
    if (!row || row.revoked_at || (row.expires_at && row.expires_at.getTime() <= now.getTime())) return null;
    this.touch(row, now);
    return { organizationId: row.organization_id, apiKeyId: row.id, userId: row.user_id, scopes: row.scopes };
  }

  async lookup(hash, nowMs) {
    const cached = this.cache.get(hash);
    if (cached && nowMs - cached.loadedAt < this.ttlMs) return cached.row;
    const { rows } = await this.pool.query(API_KEY_BY_HASH_SQL, [hash]);
    const row = rows[0] ?? null;
    if (this.ttlMs > 0) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value);
      this.cache.set(hash, { row, loadedAt: nowMs });
    }
    return row;
  }

  touch(row, now) {
    if (row.last_used_at && now.getTime() - row.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
    row.last_used_at = now;
    this.pool
      .query(TOUCH_API_KEY_SQL, [row.id, now])
      .catch((error) => this.log.warn({ err: error }, 'could not record API key use'));
  }

  /** Sets the RateLimit-* headers; returns the problem to answer when the key is over its limit. */
  countRequest(principal, headers) {
    if (!this.limiter) return null;
    const decision = this.limiter.hit(principal.apiKeyId, Date.now());
    Object.assign(headers, rateLimitHeaders(RATE_LIMIT_POLICY, decision, RATE_LIMIT_WINDOW_SECONDS));
    if (decision.allowed) return null;
    headers['Retry-After'] = String(decision.resetSeconds);
    return {
      status: 429,
      code: 'rate_limited',
      detail: `This API key made more than ${decision.limit} requests in a minute.`,
    };
  }
}

module.exports = { Authenticator };
