/** One failing input field, as reported in a problem body's `errors[]`. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/**
 * Base of every error the domain and application layers raise. The `code` is stable and public:
 * the global problem-details filter maps it to an HTTP status (`errorStatusOf`: the kernel's codes and those each context registers).
 */
export class DomainError extends Error {
  /**
   * `members`: extension members of the problem body (RFC 9457 §3.2), e.g. `reason` of
   * `slot_unavailable`; they never replace the standard members.
   */
  constructor(
    readonly code: string,
    message: string,
    readonly errors?: readonly FieldError[],
    readonly members?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(resource = 'Resource') {
    super('not_found', `${resource} not found.`);
  }
}

export class ValidationFailedError extends DomainError {
  constructor(errors: readonly FieldError[], message = 'The request is invalid.') {
    super('validation_failed', message, errors);
  }
}

export class InvalidReferenceError extends DomainError {
  constructor(field: string, message = `${field} does not name an existing record.`) {
    super('invalid_reference', message, [{ field, message }]);
  }
}

export class InvalidTransitionError extends DomainError {
  constructor(resource: string, from: string, to: string) {
    super('invalid_transition', `A ${resource} cannot move from ${from} to ${to}.`);
  }
}

export class SlugTakenError extends DomainError {
  constructor(slug: string) {
    super('slug_taken', `The slug "${slug}" is already taken.`, [{ field: 'slug', message: 'already taken' }]);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You are not allowed to do this.') {
    super('forbidden', message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Valid credentials are required.') {
    super('unauthorized', message);
  }
}

/** The one rule for every PATCH: a body that changes nothing is 400, with one message everywhere. */
export function assertChanges(changes: object): void {
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new ValidationFailedError([{ field: 'body', message: 'must contain at least one field to change' }]);
  }
}
