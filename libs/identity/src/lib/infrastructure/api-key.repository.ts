import { Injectable } from '@nestjs/common';
import { AppConfig, ListTotal, Page, pageWithTotal, returnedRows } from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import type { ApiKey, ApiKeyCredential, NewApiKey } from '../domain/api-key';
import { API_KEY_TABLE, NEW_API_KEY_TABLE } from './api-key.table';
import { translateReferenceError } from './reference-errors';

type ApiKeyRow = Record<string, unknown>;

/** Every column but the hash. */
const COLUMNS = API_KEY_TABLE.select();

/** What authentication checks of a key. */
const CREDENTIAL = API_KEY_TABLE.pick(
  'id',
  'name',
  'organizationId',
  'userId',
  'kind',
  'scopes',
  'allowedOrigins',
  'siteUrl',
  'expiresAt',
  'revokedAt',
  'lastUsedAt',
);

/** The key behind a presented secret, by its SHA-256 (the secret itself is never stored). */
const API_KEY_BY_HASH_SQL = `SELECT ${CREDENTIAL.select()} FROM api_keys WHERE key_hash = $1`;

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

const toApiKey = (row: ApiKeyRow): ApiKey => API_KEY_TABLE.fromRow(row);
const toCredential = (row: ApiKeyRow): ApiKeyCredential => CREDENTIAL.fromRow(row);

/** API keys in PostgreSQL, found by the SHA-256 of their secret (the secret itself is never stored). */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly config: AppConfig) {}

  /** Stores a key; an unknown organization or user → an invalid reference. */
  async insert(em: EntityManager, key: NewApiKey): Promise<void> {
    const insert = NEW_API_KEY_TABLE.insert(key);
    await em.query(insert.text, insert.values).catch(translateReferenceError);
  }

  /** One key of the organization; null for another organization's key. */
  async findById(em: EntityManager, organizationId: string, id: string): Promise<ApiKey | null> {
    const rows: ApiKeyRow[] = await em.query(`SELECT ${COLUMNS} FROM api_keys WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  /** A page of the organization's keys, revoked ones included, newest first, and how many there are. */
  async page(em: EntityManager, organizationId: string, page: Page): Promise<{ items: ApiKey[]; total: ListTotal }> {
    const { rows, total } = await pageWithTotal<ApiKeyRow>(
      em,
      { columns: COLUMNS, from: 'FROM api_keys WHERE organization_id = $1', orderBy: 'created_at DESC, id DESC' },
      [organizationId],
      page,
      this.config.listCountCap,
    );
    return { items: rows.map(toApiKey), total };
  }

  /** The key behind a presented secret's hash, with what authentication checks; null when unknown. */
  async findCredentialByHash(em: EntityManager, keyHash: string): Promise<ApiKeyCredential | null> {
    const rows: ApiKeyRow[] = await em.query(API_KEY_BY_HASH_SQL, [keyHash]);
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
