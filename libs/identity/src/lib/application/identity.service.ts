import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, DomainError, newId } from '@almanac/shared';
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

/** Organizations, users and API keys: used by the CLI, the demo seed and the tests. */
@Injectable()
export class IdentityService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async createOrganization(name: string): Promise<{ id: string; name: string }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 300) throw new DomainError('validation_failed', 'name must be 1-300 characters');
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
      name: input.name,
      role,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      createdAt: this.clock.now(),
    };
    await this.dataSource.getRepository(UserOrmEntity).insert(user);
    return { id: user.id, email: user.email, name: user.name, role, organization_id: user.organizationId };
  }

  async createApiKey(input: {
    organizationId: string;
    name?: string;
    scopes?: readonly string[];
    userId?: string | null;
    expiresAt?: Date | null;
  }): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const scopes = normalizeScopes(input.scopes);
    const row = {
      id: newId(),
      organizationId: input.organizationId,
      userId: input.userId ?? null,
      name: input.name ?? 'API key',
      prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
      keyHash: hashApiKey(key),
      scopes,
      createdAt: this.clock.now(),
      lastUsedAt: null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    await this.dataSource.getRepository(ApiKeyOrmEntity).insert(row);
    return { id: row.id, key, prefix: row.prefix, scopes };
  }

  /** Returns false when no such key exists. */
  async revokeApiKey(id: string): Promise<boolean> {
    const result = await this.dataSource.query(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING key_hash',
      [id, this.clock.now()],
    );
    const rows = (result as [Array<{ key_hash: string }>, number])[0] ?? [];
    for (const row of rows) this.authenticator.forget(row.key_hash);
    return rows.length > 0;
  }
}
