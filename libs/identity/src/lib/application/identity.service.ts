import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, DomainError, InvalidReferenceError, isUuid, newId, NotFoundError, PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, pgErrorOf } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { API_KEY_PREFIX_LENGTH, generateApiKey, hashApiKey } from '../domain/api-key-secret';
import { hashPassword } from '../domain/password';
import { normalizeScopes, Scope } from '../domain/scopes';
import { ApiKeyOrmEntity, OrganizationOrmEntity, UserOrmEntity } from '../infrastructure/identity.orm-entities';
import { ApiKeyAuthenticator } from './api-key-authenticator';

export interface CreatedApiKey {
  id: string;
  /** The secret, shown once. */
  key: string;
  prefix: string;
  scopes: Scope[];
}

/** An API key as stored, without its hash. */
export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  userId: string | null;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

function toRecord(row: ApiKeyOrmEntity): ApiKeyRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as Scope[],
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  };
}

/** Translates a foreign-key violation on the organization or user into a domain error. */
function translateReferenceError(error: unknown): never {
  const { code, constraint } = pgErrorOf(error);
  if (code === PG_FOREIGN_KEY_VIOLATION) {
    throw new InvalidReferenceError(constraint?.includes('user') ? 'user_id' : 'organization_id');
  }
  throw error;
}

/** The trimmed name of an organization, user or API key: 1-300 characters. */
function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 300) throw new DomainError('validation_failed', 'name must be 1-300 characters');
  return trimmed;
}

/** Organizations, users and API keys: used by the CLI, the demo seed and the tests. */
@Injectable()
export class IdentityService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async createOrganization(name: string): Promise<{ id: string; name: string }> {
    const trimmed = validName(name);
    const org = { id: newId(), name: trimmed, createdAt: this.clock.now() };
    await this.dataSource.getRepository(OrganizationOrmEntity).insert(org);
    return { id: org.id, name: org.name };
  }

  async createUser(input: {
    organizationId: string;
    email: string;
    name: string;
    password?: string;
    role?: 'admin' | 'author';
  }): Promise<{ id: string; email: string; name: string; role: 'admin' | 'author'; organization_id: string }> {
    if (!isUuid(input.organizationId)) throw new InvalidReferenceError('organization_id');
    const name = validName(input.name);
    const role = input.role ?? 'admin';
    if (role !== 'admin' && role !== 'author') throw new DomainError('validation_failed', 'role must be admin or author');
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) throw new DomainError('validation_failed', 'email is not an e-mail address');
    if (role === 'admin' && (!input.password || input.password.length < 8)) {
      throw new DomainError('validation_failed', 'an admin needs a password of at least 8 characters');
    }
    const user = {
      id: newId(),
      organizationId: input.organizationId,
      email: input.email,
      name,
      role,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      createdAt: this.clock.now(),
    };
    try {
      await this.dataSource.getRepository(UserOrmEntity).insert(user);
    } catch (error) {
      if (pgErrorOf(error).code === PG_UNIQUE_VIOLATION) {
        throw new DomainError('email_taken', 'A user with this e-mail already exists.', [{ field: 'email', message: 'already taken' }]);
      }
      translateReferenceError(error);
    }
    return { id: user.id, email: user.email, name: user.name, role, organization_id: user.organizationId };
  }

  async createApiKey(input: {
    organizationId: string;
    name?: string;
    scopes?: readonly string[];
    userId?: string | null;
    expiresAt?: Date | null;
  }): Promise<CreatedApiKey> {
    if (!isUuid(input.organizationId)) throw new InvalidReferenceError('organization_id');
    if (input.userId != null && !isUuid(input.userId)) throw new InvalidReferenceError('user_id');
    const name = validName(input.name ?? 'API key');
    const key = generateApiKey();
    const scopes = normalizeScopes(input.scopes);
    const row = {
      id: newId(),
      organizationId: input.organizationId,
      userId: input.userId ?? null,
      name,
      prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
      keyHash: hashApiKey(key),
      scopes,
      createdAt: this.clock.now(),
      lastUsedAt: null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    if (row.userId) {
      // The key's user must belong to the key's organization.
      const owner = await this.dataSource.query('SELECT 1 FROM users WHERE organization_id = $1 AND id = $2', [row.organizationId, row.userId]);
      if (owner.length === 0) throw new InvalidReferenceError('user_id');
    }
    await this.dataSource.getRepository(ApiKeyOrmEntity).insert(row).catch(translateReferenceError);
    return { id: row.id, key, prefix: row.prefix, scopes };
  }

  /** One key of the organization; another organization's key is not found. */
  async getApiKey(organizationId: string, id: string): Promise<ApiKeyRecord> {
    const row = await this.dataSource.getRepository(ApiKeyOrmEntity).findOneBy({ organizationId, id });
    if (!row) throw new NotFoundError('API key');
    return toRecord(row);
  }

  /** The organization's keys, revoked ones included, newest first. */
  async listApiKeys(organizationId: string, page: { limit: number; offset: number }): Promise<{ items: ApiKeyRecord[]; total: number }> {
    const [rows, total] = await this.dataSource.getRepository(ApiKeyOrmEntity).findAndCount({
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { items: rows.map(toRecord), total };
  }

  /**
   * Revokes one key of the organization (idempotent: an already revoked key keeps its revoked_at) and
   * returns it; another organization's key is not found.
   */
  async revokeOrganizationApiKey(organizationId: string, id: string): Promise<ApiKeyRecord> {
    const result = await this.dataSource.query(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE organization_id = $1 AND id = $2 RETURNING key_hash',
      [organizationId, id, this.clock.now()],
    );
    const rows = (result as [Array<{ key_hash: string }>, number])[0] ?? [];
    if (rows.length === 0) throw new NotFoundError('API key');
    for (const row of rows) this.authenticator.forget(row.key_hash);
    return this.getApiKey(organizationId, id);
  }

  /** Returns false when no such key exists. */
  async revokeApiKey(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.dataSource.query(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING key_hash',
      [id, this.clock.now()],
    );
    const rows = (result as [Array<{ key_hash: string }>, number])[0] ?? [];
    for (const row of rows) this.authenticator.forget(row.key_hash);
    return rows.length > 0;
  }
}
