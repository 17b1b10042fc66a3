import type { Scope } from './scopes';

/** Who is calling `/api/v1`: an API key of one organization, with its scopes. */
export interface ApiPrincipal {
  readonly organizationId: string;
  readonly apiKeyId: string;
  /** The user the key was issued for, if any (default author of posts). */
  readonly userId: string | null;
  readonly scopes: readonly Scope[];
}
