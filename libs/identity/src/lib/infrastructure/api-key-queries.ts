// Framework-free on purpose: the bench floor (tools/bench/floor/auth.js) runs these same statements.

/** The key behind a presented secret, by its SHA-256 (the secret itself is never stored). */
export const API_KEY_BY_HASH_SQL =
  'SELECT id, organization_id, user_id, scopes, expires_at, revoked_at, last_used_at FROM api_keys WHERE key_hash = $1';

/** Records a key's use ($1 the key id, $2 the time); the authenticator writes it at most once a minute. */
export const TOUCH_API_KEY_SQL = 'UPDATE api_keys SET last_used_at = $2 WHERE id = $1';
