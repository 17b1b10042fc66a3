'use strict';

/** A problem to answer with (RFC 9457 body), thrown by the floor's handlers and checks. */
class Problem extends Error {
  constructor(status, code, detail, errors) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

const notFound = (resource) => new Problem(404, 'not_found', `${resource} not found.`);
const validationFailed = (errors) => new Problem(400, 'validation_failed', 'The request is invalid.', errors);

module.exports = { Problem, notFound, validationFailed };
