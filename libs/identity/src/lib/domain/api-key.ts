import { field, recordFields } from '@almanac/shared/domain';
import type { ApiKeyKind } from './api-key-kind';
import type { Scope } from './scopes';

/** An API key as stored, without its hash. */
export interface ApiKey {
  readonly id: string;
  readonly organizationId: string;
  readonly userId: string | null;
  readonly name: string;
  readonly prefix: string;
  readonly kind: ApiKeyKind;
  readonly scopes: Scope[];
  /** Publishable keys: the browser origins that get CORS headers (canonical form). */
  readonly allowedOrigins: string[];
  /** Publishable keys: where the posts live, for links (`{site_url}/{slug}`). */
  readonly siteUrl: string | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
}

/** Every field of an API key, as stored (the responses choose theirs). */
export const API_KEY_FIELDS = recordFields<ApiKey>()({
  id: field.value,
  organizationId: field.value,
  userId: field.value,
  name: field.value,
  prefix: field.value,
  kind: field.value,
  scopes: field.value,
  allowedOrigins: field.value,
  siteUrl: field.value,
  createdAt: field.instant,
  lastUsedAt: field.instant,
  expiresAt: field.instant,
  revokedAt: field.instant,
});

/** A key about to be stored: the record and the SHA-256 of its secret. */
export interface NewApiKey extends ApiKey {
  readonly keyHash: string;
}

/** A stored key's fields and its hash, which only a write and the lookup by secret touch. */
export const NEW_API_KEY_FIELDS = recordFields<NewApiKey>()({ ...API_KEY_FIELDS.specs, keyHash: field.hidden(field.value) });

/** A key just created, with its secret (shown once). */
export interface CreatedApiKey {
  id: string;
  /** The secret, shown once. */
  key: string;
  prefix: string;
  kind: ApiKeyKind;
  scopes: Scope[];
}

/** What the authenticator checks a presented key against. */
export interface ApiKeyCredential {
  readonly id: string;
  readonly name: string;
  readonly organizationId: string;
  readonly userId: string | null;
  readonly kind: ApiKeyKind;
  readonly scopes: Scope[];
  readonly allowedOrigins: readonly string[];
  readonly siteUrl: string | null;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  /** Updated in place by the authenticator when it records a use, so a cached key is written once a minute. */
  lastUsedAt: Date | null;
}

/** A key works until it is revoked and, if it has one, until its expiry. */
export function isApiKeyUsable(key: ApiKeyCredential, now: Date): boolean {
  return !key.revokedAt && !(key.expiresAt && key.expiresAt.getTime() <= now.getTime());
}
