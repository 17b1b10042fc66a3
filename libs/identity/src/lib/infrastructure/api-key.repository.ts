import { Injectable } from '@nestjs/common';
import { pageWithTotal, returnedRows } from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import type { ApiKey, ApiKeyCredential, NewApiKey } from '../domain/api-key';
import type { ApiKeyKind } from '../domain/api-key-kind';
import type { Scope } from '../domain/scopes';
import { translateReferenceError } from './reference-errors';

interface ApiKeyRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  name: string;
  prefix: string;
  kind: ApiKeyKind;
  scopes: Scope[];
  allowed_origins: string[];
  site_url: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

type CredentialRow = Pick<
  ApiKeyRow,
  'id' | 'name' | 'organization_id' | 'user_id' | 'kind' | 'scopes' | 'allowed_origins' | 'site_url' | 'expires_at' | 'revoked_at' | 'last_used_at'
>;

/** Every column but the hash. */
const COLUMNS = 'id, organization_id, user_id, name, prefix, kind, scopes, allowed_origins, site_url, created_at, last_used_at, expires_at, revoked_at';

/** The key behind a presented secret, by its SHA-256 (the secret itself is never stored). */
const API_KEY_BY_HASH_SQL =
  'SELECT id, name, organization_id, user_id, kind, scopes, allowed_origins, site_url, expires_at, revoked_at, last_used_at FROM api_keys WHERE key_hash = $1';

/**
 * Whether any usable publishable key, of any organization, lets browsers on this origin call
 * (a preflight carries no key); the partial GIN index answers it.
 */
const ORIGIN_ALLOWED_SQL = `SELECT EXISTS (
  SELECT 1 FROM api_keys
   WHERE kind = 'publishable' AND revoked_at IS NULL AND allowed_origins @> ARRAY[$1::text]
     AND (expires_at IS NULL OR expires_at > $2)
) AS allowed`;

/** Records a key's use ($1 the key id, $2 the time); the authenticator writes it at most once a minute. */
const TOUCH_API_KEY_SQL = 'UPDATE api_keys SET last_used_at = $2 WHERE id = $1';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    userId: row.user_id,
    name: row.name,
    prefix: row.prefix,
    kind: row.kind,
    scopes: row.scopes,
    allowedOrigins: row.allowed_origins,
    siteUrl: row.site_url,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

function toCredential(row: CredentialRow): ApiKeyCredential {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organization_id,
    userId: row.user_id,
    kind: row.kind,
    scopes: row.scopes,
    allowedOrigins: row.allowed_origins,
    siteUrl: row.site_url,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/** API keys in PostgreSQL, found by the SHA-256 of their secret (the secret itself is never stored). */
@Injectable()
export class ApiKeyRepository {
  /** Stores a key; an unknown organization or user → an invalid reference. */
  async insert(em: EntityManager, key: NewApiKey): Promise<void> {
    await em
      .query(
        `INSERT INTO api_keys (id, organization_id, user_id, name, prefix, key_hash, kind, scopes, allowed_origins, site_url, created_at, last_used_at, expires_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          key.id,
          key.organizationId,
          key.userId,
          key.name,
          key.prefix,
          key.keyHash,
          key.kind,
          key.scopes,
          key.allowedOrigins,
          key.siteUrl,
          key.createdAt,
          key.lastUsedAt,
          key.expiresAt,
          key.revokedAt,
        ],
      )
      .catch(translateReferenceError);
  }

  /** One key of the organization; null for another organization's key. */
  async findById(em: EntityManager, organizationId: string, id: string): Promise<ApiKey | null> {
    const rows: ApiKeyRow[] = await em.query(`SELECT ${COLUMNS} FROM api_keys WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  /** A page of the organization's keys, revoked ones included, newest first, and how many there are. */
  async page(em: EntityManager, organizationId: string, page: { limit: number; offset: number }): Promise<{ items: ApiKey[]; total: number }> {
    const { rows, total } = await pageWithTotal<ApiKeyRow & { total: string }>(
      em,
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM api_keys WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      'SELECT count(*) AS total FROM api_keys WHERE organization_id = $1',
      [organizationId, page.limit, page.offset],
      page.offset,
    );
    return { items: rows.map(toApiKey), total };
  }

  /** The key behind a presented secret's hash, with what authentication checks; null when unknown. */
  async findCredentialByHash(em: EntityManager, keyHash: string): Promise<ApiKeyCredential | null> {
    const rows: CredentialRow[] = await em.query(API_KEY_BY_HASH_SQL, [keyHash]);
    return rows[0] ? toCredential(rows[0]) : null;
  }

  /** Whether a usable publishable key (any organization's) allows browsers on `origin` at `now`. */
  async isOriginAllowed(em: EntityManager, origin: string, now: Date): Promise<boolean> {
    const rows: Array<{ allowed: boolean }> = await em.query(ORIGIN_ALLOWED_SQL, [origin, now]);
    return rows[0]?.allowed === true;
  }

  /** Records a key's use at `at`. */
  async touch(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.query(TOUCH_API_KEY_SQL, [id, at]);
  }

  /**
   * Revokes a key (of this organization, when one is given); an already revoked key keeps its
   * revoked_at. Returns the keys it found (none or one) as they are now, each with its hash for the
   * authenticator's cache.
   */
  async revoke(em: EntityManager, id: string, at: Date, organizationId?: string): Promise<Array<{ key: ApiKey; keyHash: string }>> {
    const result: unknown =
      organizationId === undefined
        ? await em.query(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${COLUMNS}, key_hash`, [id, at])
        : await em.query(
            `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}, key_hash`,
            [organizationId, id, at],
          );
    return returnedRows<ApiKeyRow & { key_hash: string }>(result).map((row) => ({ key: toApiKey(row), keyHash: row.key_hash }));
  }
}
