import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AuditLog,
  AuditSource,
  Clock,
  ErasedRecords,
  InvalidReferenceError,
  isUuid,
  ListTotal,
  newId,
  NO_AUDIT_SOURCE,
  NotFoundError,
  Page,
  PersonErasure,
  scrubText,
  Transactions,
} from '@almanac/shared';
import { DataSource } from 'typeorm';
import { ApiKey, CreatedApiKey } from '../domain/api-key';
import { ApiKeyTermsInput, resolveApiKeyTerms } from '../domain/api-key-kind';
import { API_KEY_PREFIX_LENGTH, generateApiKey, hashApiKey } from '../domain/api-key-secret';
import { validName } from '../domain/identity-name';
import { newOrganization, Organization } from '../domain/organization';
import { hashPassword } from '../domain/password';
import { checkNewUser, NewUserInput, User } from '../domain/user';
import { ApiKeyRepository } from '../infrastructure/api-key.repository';
import { StoredAnswerErasureRepository } from '../infrastructure/stored-answer-erasure.repository';
import { OrganizationRepository } from '../infrastructure/organization.repository';
import { UserRepository } from '../infrastructure/user.repository';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { BrowserOrigins } from './browser-origins';

/** Who reads through a publishable key given in a public address (the Atom feed's `?key=`). */
export interface PublishableReader {
  readonly apiKeyId: string;
  readonly organizationId: string;
  readonly organizationName: string;
  readonly organizationCreatedAt: Date;
  readonly siteUrl: string | null;
}

/** Organizations, users and API keys: used by the CLI, the demo seed, the admin console and the tests. */
@Injectable()
export class IdentityService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationRepository,
    private readonly users: UserRepository,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly origins: BrowserOrigins,
    private readonly audit: AuditLog,
    private readonly transactions: Transactions,
    private readonly storedAnswers: StoredAnswerErasureRepository,
  ) {}

  /**
   * Takes an erased person out of the answers kept for Idempotency-Key replays (24 h): a replay then
   * answers with the anonymised record. Joins the caller's `Transactions.run`.
   */
  async eraseFromStoredAnswers(organizationId: string, erasure: PersonErasure, erased: readonly ErasedRecords[]): Promise<void> {
    await this.transactions.run(async () => {
      const em = this.transactions.manager();
      const ids = erased.flatMap((group) => group.records.map((r) => r.id));
      const answers = await this.storedAnswers.lockAnswersHolding(em, organizationId, erasure.address, ids);
      const scrubbed = answers.flatMap((a) => {
        const body = scrubText(a.response_body, erasure, erased);
        return body === null ? [] : [{ attemptId: a.attempt_id, body }];
      });
      await this.storedAnswers.replaceBodies(em, organizationId, scrubbed);
    });
  }

  async createOrganization(name: string): Promise<Organization> {
    const organization = newOrganization(newId(), name);
    await this.organizations.insert(this.dataSource.manager, organization, this.clock.now());
    return organization;
  }

  async createUser(input: NewUserInput): Promise<User> {
    const { name, role } = checkNewUser(input);
    const user: User = { id: newId(), organizationId: input.organizationId, email: input.email, name, role };
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    await this.users.insert(this.dataSource.manager, user, passwordHash, this.clock.now());
    return user;
  }

  /**
   * A new key, secret by default; `kind: 'publishable'` makes a read-only key for browsers (see
   * `resolveApiKeyTerms` for what each kind may be given).
   */
  async createApiKey(
    input: ApiKeyTermsInput & {
      organizationId: string;
      name?: string;
      userId?: string | null;
      expiresAt?: Date | null;
    },
    source: AuditSource = NO_AUDIT_SOURCE,
  ): Promise<CreatedApiKey & { record: ApiKey }> {
    if (!isUuid(input.organizationId)) throw new InvalidReferenceError('organization_id');
    if (input.userId != null && !isUuid(input.userId)) throw new InvalidReferenceError('user_id');
    const name = validName(input.name ?? 'API key');
    const terms = resolveApiKeyTerms(input);
    const secret = generateApiKey(terms.kind);
    const scopes = terms.scopes;
    const record: ApiKey = {
      id: newId(),
      organizationId: input.organizationId,
      userId: input.userId ?? null,
      name,
      prefix: secret.slice(0, API_KEY_PREFIX_LENGTH),
      kind: terms.kind,
      scopes,
      allowedOrigins: terms.allowedOrigins,
      siteUrl: terms.siteUrl,
      createdAt: this.clock.now(),
      lastUsedAt: null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    const key = { ...record, keyHash: hashApiKey(secret) };
    await this.dataSource.transaction(async (em) => {
      // The key's user must belong to the key's organization.
      if (key.userId && !(await this.users.existsInOrganization(em, key.organizationId, key.userId))) throw new InvalidReferenceError('user_id');
      await this.keys.insert(em, key);
      await this.audit.record(em, key.organizationId, source, 'api_key.created', { type: 'api_key', id: key.id });
    });
    if (key.kind === 'publishable') this.origins.forget();
    return { id: key.id, key: secret, prefix: key.prefix, kind: key.kind, scopes, record };
  }

  /**
   * The reader behind a publishable key given in a public address; null for an unknown, revoked or
   * expired key and for a secret key (so a public address never tells them apart).
   */
  async publishableReader(secret: string): Promise<PublishableReader | null> {
    const key = await this.authenticator.publishableKey(secret);
    if (!key) return null;
    const organization = await this.organizations.findById(this.dataSource.manager, key.organizationId);
    if (!organization) return null;
    return {
      apiKeyId: key.id,
      organizationId: organization.id,
      organizationName: organization.name,
      organizationCreatedAt: organization.createdAt,
      siteUrl: key.siteUrl,
    };
  }

  /** One key of the organization; another organization's key is not found. */
  async getApiKey(organizationId: string, id: string): Promise<ApiKey> {
    const key = await this.keys.findById(this.dataSource.manager, organizationId, id);
    if (!key) throw new NotFoundError('API key');
    return key;
  }

  /** The organization's keys, revoked ones included, newest first. */
  async listApiKeys(organizationId: string, page: Page): Promise<{ items: ApiKey[]; total: ListTotal }> {
    return this.keys.page(this.dataSource.manager, organizationId, page);
  }

  /**
   * Revokes one key of the organization (idempotent: an already revoked key keeps its revoked_at) and
   * returns it; another organization's key is not found.
   */
  async revokeOrganizationApiKey(organizationId: string, id: string, source: AuditSource = NO_AUDIT_SOURCE): Promise<ApiKey> {
    const [revoked] = await this.revoke(id, organizationId, source);
    if (!revoked) throw new NotFoundError('API key');
    return revoked.key;
  }

  /** Returns false when no such key exists. */
  async revokeApiKey(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.revoke(id, undefined, NO_AUDIT_SOURCE)).length > 0;
  }

  /** Revokes the key and records the request, in one transaction (a key revoked before keeps its revoked_at). */
  private async revoke(id: string, organizationId: string | undefined, source: AuditSource): Promise<Array<{ key: ApiKey; keyHash: string }>> {
    const now = this.clock.now();
    const revoked = await this.dataSource.transaction(async (em) => {
      const found = await this.keys.revoke(em, id, now, organizationId);
      for (const { key } of found) await this.audit.record(em, key.organizationId, source, 'api_key.revoked', { type: 'api_key', id: key.id });
      return found;
    });
    for (const { keyHash } of revoked) this.authenticator.forget(keyHash);
    this.origins.forget();
    return revoked;
  }
}
