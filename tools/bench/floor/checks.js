'use strict';
// Input checks of the floor: the same rules as the API's DTOs (class-validator there), written out by
// hand. Each check pushes `{field, message}` into `errors`; the caller answers 400 when any failed.

const isEmail = require('validator/lib/isEmail');
const {
  isDateTimeWithZone,
  isIanaTimeZone,
  parseDateOrDateTime,
  SLUG_PATTERN,
  SLUG_MAX_LENGTH,
} = require('./domain');

// class-validator's isUUID('all').
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;
const QUERY_INT = /^-?\d{1,15}$/;

class Checks {
  constructor() {
    this.errors = [];
  }

  fail(field, message) {
    this.errors.push({ field, message });
  }

  get ok() {
    return this.errors.length === 0;
  }

  // --- bodies: whitelist (unknown fields are refused), null counts as absent for optional fields ---

  onlyKnown(object, known, prefix = '') {
    for (const key of Object.keys(object)) {
      if (!known.includes(key)) this.fail(prefix + key, `property ${key} should not exist`);
    }
  }

  string(object, key, path, { required = false, min = 0, max = Infinity, notBlank = false } = {}) {
    const value = object[key];
    if (value === undefined || value === null) {
      if (required) this.fail(path, 'must be a string');
      return;
    }
    if (typeof value !== 'string') return this.fail(path, 'must be a string');
    if (value.length < min) this.fail(path, `must be longer than or equal to ${min} characters`);
    if (value.length > max) this.fail(path, `must be shorter than or equal to ${max} characters`);
    if (notBlank && value.trim().length === 0) this.fail(path, 'must not be blank');
  }

  email(object, key, path, { required = false, max }) {
    const value = object[key];
    if (value === undefined || value === null) {
      if (required) this.fail(path, 'must be an e-mail address');
      return;
    }
    if (typeof value !== 'string') return this.fail(path, 'must be a string');
    if (value.length > max) this.fail(path, `must be shorter than or equal to ${max} characters`);
    if (!isEmail(value)) this.fail(path, 'must be an e-mail address');
  }

  dateTimeWithZone(object, key, path, { required = false } = {}) {
    const value = object[key];
    if ((value === undefined || value === null) && !required) return;
    if (!isDateTimeWithZone(value))
      this.fail(path, 'must be an ISO 8601 date-time with a zone (Z or ±hh:mm)');
  }

  timeZone(object, key, path) {
    const value = object[key];
    if (value === undefined || value === null) return;
    if (!isIanaTimeZone(value)) this.fail(path, 'must be an IANA time zone name such as Europe/Paris');
  }

  oneOf(object, key, path, allowed, { nullable = true } = {}) {
    const value = object[key];
    if (value === undefined || (value === null && nullable)) return;
    if (!allowed.includes(value))
      this.fail(path, `must be one of the following values: ${allowed.join(', ')}`);
  }

  // --- query parameters: strings, converted only when well-formed ---

  queryInt(query, key, min) {
    let value = query[key];
    if (value === undefined) return undefined;
    if (typeof value === 'string' && QUERY_INT.test(value)) value = Number(value);
    if (!Number.isInteger(value)) return this.fail(key, `must be an integer number`);
    if (value < min) this.fail(key, `must not be less than ${min}`);
    if (value > Number.MAX_SAFE_INTEGER)
      this.fail(key, `must not be greater than ${Number.MAX_SAFE_INTEGER}`);
    return value;
  }

  queryBool(query, key) {
    const value = query[key];
    if (value === undefined) return undefined;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    this.fail(key, 'must be a boolean value');
    return undefined;
  }

  queryUuid(query, key) {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !UUID.test(value)) this.fail(key, 'must be a UUID');
    return value;
  }

  queryOneOf(query, key, allowed) {
    const value = query[key];
    if (value === undefined) return undefined;
    if (!allowed.includes(value))
      this.fail(key, `must be one of the following values: ${allowed.join(', ')}`);
    return value;
  }

  queryString(query, key, { min = 0, max }) {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.fail(key, 'must be a string');
    if (value.length < min) this.fail(key, `must be longer than or equal to ${min} characters`);
    if (value.length > max) this.fail(key, `must be shorter than or equal to ${max} characters`);
    return value;
  }

  querySlug(query, key) {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length > SLUG_MAX_LENGTH || !SLUG_PATTERN.test(value)) {
      this.fail(key, 'must be lowercase a-z0-9 with single inner hyphens, 1-100 characters');
    }
    return value;
  }

  queryDateOrDateTime(query, key) {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || parseDateOrDateTime(value) === null) {
      this.fail(key, 'must be a date YYYY-MM-DD or an ISO 8601 date-time with a zone');
    }
    return value;
  }
}

/** Keeps only the declared query parameters (unknown ones are ignored, api-decisions §4). */
function knownQuery(query, names) {
  const kept = {};
  for (const name of names) if (query[name] !== undefined) kept[name] = query[name];
  return kept;
}

function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

module.exports = { Checks, knownQuery, isPlainObject };
