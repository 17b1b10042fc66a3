/** Prefix of every problem's `type` URI; the error code follows it. */
export const PROBLEM_TYPE_BASE = 'https://almanac.dev/problems/';

/**
 * HTTP status of the kernel's error codes (the table: docs/contract/http.md): those of `@almanac/shared` itself and
 * those several contexts use. A context's own codes live in the context and are registered from its
 * module with `registerErrorCodes` (e.g. `SCHEDULING_ERROR_CODES` in libs/scheduling).
 */
export const KERNEL_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_transition: 409,
  slug_taken: 409,
  write_conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_reference: 422,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  unavailable: 503,
  database_unavailable: 503,
};

const registered = new Map<string, { status: number; owner: string }>(
  Object.entries(KERNEL_ERROR_STATUS).map(([code, status]) => [code, { status, owner: 'shared' }]),
);

/**
 * Declares a context's error codes and their statuses. Called once from the context's module file;
 * a code may belong to one owner only (a second owner, or another status, is a programming error).
 */
export function registerErrorCodes(owner: string, codes: Readonly<Record<string, number>>): void {
  for (const [code, status] of Object.entries(codes)) {
    const known = registered.get(code);
    if (known && (known.owner !== owner || known.status !== status)) {
      throw new Error(`error code ${code} is already registered by ${known.owner} (${known.status})`);
    }
    registered.set(code, { status, owner });
  }
}

/** The HTTP status of a registered error code; undefined for a code nobody registered. */
export function errorStatusOf(code: string): number | undefined {
  return registered.get(code)?.status;
}

/** Every registered code with its status and owner (for specs and docs). */
export function registeredErrorCodes(): ReadonlyMap<string, { status: number; owner: string }> {
  return registered;
}

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
