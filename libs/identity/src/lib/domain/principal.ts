import type { ApiKeyKind } from './api-key-kind';
import type { Scope } from './scopes';

/** Who is calling `/api/v1`: an API key of one organization, with its scopes. */
export interface ApiPrincipal {
  readonly organizationId: string;
  readonly apiKeyId: string;
  /** The key's name, as the audit log shows who acted. */
  readonly apiKeyName: string;
  /** The user the key was issued for, if any (default author of posts). */
  readonly userId: string | null;
  readonly scopes: readonly Scope[];
  /** A publishable key reads only what is published, and only where a route lets it (see the guard). */
  readonly kind: ApiKeyKind;
  /** The browser origins a publishable key answers with CORS headers (none for a secret key). */
  readonly allowedOrigins: readonly string[];
}
