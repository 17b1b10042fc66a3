/** Identity's own error codes and their HTTP statuses (registered by IdentityModule). */
export const IDENTITY_ERROR_CODES = {
  csrf_rejected: 403,
  email_taken: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
} as const;
