/** Prefix of every problem's `type` URI; the error code follows it. */
export const PROBLEM_TYPE_BASE = 'https://almanac.dev/problems/';

/** HTTP status of every public error code (api-decisions §3). */
export const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  csrf_rejected: 403,
  not_found: 404,
  invalid_transition: 409,
  schedule_in_use: 409,
  booking_overlap: 409,
  slug_taken: 409,
  email_taken: 409,
  event_full: 409,
  event_not_open: 409,
  already_registered: 409,
  slots_below_registrations: 409,
  sync_in_progress: 409,
  idempotency_in_progress: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_reference: 422,
  integration_not_configured: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  unavailable: 503,
  database_unavailable: 503,
};

export const STATUS_TITLE: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Code used for an HTTP status when nothing more specific is known. */
export const DEFAULT_CODE: Readonly<Record<number, string>> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  503: 'unavailable',
};
