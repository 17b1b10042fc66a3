import type { FieldError } from '../domain/domain-error';

// What every request is checked for before anything reads it, as plain functions: the API's middleware
// (http-middleware.ts) runs these.

/** The largest JSON body accepted (413 above it). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A client's `X-Request-Id` is echoed when it matches this; otherwise a fresh id is made. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** How deeply a JSON body may nest (objects and arrays); deeper bodies are refused before anything reads them. */
export const MAX_BODY_DEPTH = 64;

/**
 * The most members one object of a body may have. Parsing, mapping and validating an object cost more
 * than linear time in its member count; a thousand is far beyond any object the API takes.
 */
export const MAX_OBJECT_MEMBERS = 1_000;

/**
 * The most values a body may hold in all: every JSON value counts, objects and arrays included, member
 * names do not. It bounds the work of everything that reads a body after this check.
 */
export const MAX_BODY_VALUES = 100_000;

/** At most this many problems are reported for one body (docs/contract/http.md, "Errors"). */
export const MAX_REPORTED_ERRORS = 100;

/**
 * Keys no body may carry: the validation pipe deletes them in place (they could reach an object's
 * prototype), so accepting them would silently drop what the client sent.
 */
export const RESERVED_BODY_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * Request headers the API reads a value from, by their name as Node gives it and as the document
 * spells it. Their values must hold no control character (C0, DEL, C1): the document says so with
 * HEADER_TEXT_PATTERN, and the server refuses one (400) rather than reading it. Node's HTTP parser
 * already refuses most of them, but not a tab, nor the bytes 0x80–0x9F.
 */
export const READ_HEADERS: Readonly<Record<string, string>> = {
  'if-match': 'If-Match',
  'if-none-match': 'If-None-Match',
  'if-modified-since': 'If-Modified-Since',
  'idempotency-key': 'Idempotency-Key',
};

/** Header text: printable ASCII and printable Latin-1 (a header value is bytes, read as Latin-1), as JSON Schema. */
export const HEADER_TEXT_PATTERN = '^[\\x20-\\x7E\\xA0-\\xFF]*$';
const HEADER_TEXT = new RegExp(HEADER_TEXT_PATTERN);

/** The READ_HEADERS of a request that hold a control character, as problems naming the header. */
export function findHeaderProblems(headers: Readonly<Record<string, string | string[] | undefined>>): FieldError[] {
  const found: FieldError[] = [];
  for (const [name, field] of Object.entries(READ_HEADERS)) {
    const value = headers[name];
    if (value === undefined) continue;
    if (!(Array.isArray(value) ? value : [value]).every((v) => HEADER_TEXT.test(v))) {
      found.push({ field, message: 'must not contain control characters' });
    }
  }
  return found;
}

/** What a JSON body is refused for, found in its bytes. */
export interface BodyProblems {
  /** The problems, at most MAX_REPORTED_ERRORS, with paths such as `attendee.name` or `content[2]`. */
  readonly errors: FieldError[];
  /**
   * The body passes a bound on its shape (depth, members, values): `errors` holds that one problem and
   * the body must be refused without being parsed. Otherwise its problems stand only if it parses.
   */
  readonly shape: boolean;
}

/**
 * What every JSON body is refused for, found in one pass over its UTF-8 bytes before it is parsed, so
 * that no body costs more than that pass unless it is within the bounds. Its shape first, each as one
 * error and nothing else reported: nesting deeper than MAX_BODY_DEPTH (at the deepest container's
 * path), an object of more than MAX_OBJECT_MEMBERS members (at the object's path, `body` for the top
 * level), more than MAX_BODY_VALUES values in all (at `body`). Then NUL characters and unpaired
 * surrogates in a string or a key, and the reserved keys (a key's problems are reported at the object
 * that holds it: `metadata`, or `body`).
 *
 * The pass reads the tokens of JSON without validating its grammar: a body that is not JSON is found
 * so by the parser after it (unless it passes a bound first). Structural characters are ASCII, so
 * bytes of multi-byte UTF-8 characters never look like one. It allocates nothing per value: the state
 * is one frame per open container (at most MAX_BODY_DEPTH), and paths are spelled out only for what is reported.
 */
export function findBodyProblems(raw: Uint8Array): BodyProblems {
  return new BodyScan(raw).run();
}

/** Finds strings with a NUL character anywhere in a parsed query (PostgreSQL rejects them in text). */
export function findNulBytes(value: unknown, path = ''): FieldError[] {
  const found: FieldError[] = [];
  // An explicit stack, never recursion: query values nest only as deep as the query parser lets them.
  const stack: Array<{ value: unknown; path: string }> = [{ value, path }];
  while (stack.length > 0 && found.length < MAX_REPORTED_ERRORS) {
    const { value: item, path: at } = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push({ field: at || 'query', message: 'must not contain NUL characters' });
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    const entries = Array.isArray(item) ? item.map((v, i) => [`${at}[${i}]`, v] as const) : Object.entries(item).map(([k, v]) => [at ? `${at}.${k}` : k, v] as const);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ path: entries[i]![0], value: entries[i]![1] });
  }
  return found;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const RESERVED_KEY_BYTES = RESERVED_BODY_KEYS.map((key) => Buffer.from(key));

/** One open object or array. */
interface Frame {
  readonly isArray: boolean;
  /** Items of an array so far minus one (the current item's index), or members of an object so far. */
  count: number;
  /** The current member's name in an object: the bytes between its quotes, and whether it has escapes. */
  keyStart: number;
  keyEnd: number;
  keyEscaped: boolean;
  /** In an object, the next string is a member name. */
  expectKey: boolean;
}

/** Problems of one string token (its bytes between the quotes). */
interface StringFlags {
  end: number;
  escaped: boolean;
  nul: boolean;
  unpaired: boolean;
}

class BodyScan {
  private readonly stack: Frame[] = [];
  private readonly errors: FieldError[] = [];
  private values = 0;

  constructor(private readonly bytes: Uint8Array) {}

  run(): BodyProblems {
    const bytes = this.bytes;
    const length = bytes.length;
    let i = 0;
    while (i < length) {
      const c = bytes[i]!;
      const top = this.stack[this.stack.length - 1];
      if (c === QUOTE) {
        const text = this.readString(i + 1);
        if (top && !top.isArray && top.expectKey) {
          top.count += 1;
          if (top.count > MAX_OBJECT_MEMBERS) return this.shape(this.pathOf(this.stack.length - 1), `must not have more than ${MAX_OBJECT_MEMBERS} members`);
          top.keyStart = i + 1;
          top.keyEnd = text.end;
          top.keyEscaped = text.escaped;
          top.expectKey = false;
          this.keyProblems(text);
        } else {
          if (this.countValue()) return this.shape('body', `must not hold more than ${MAX_BODY_VALUES} values in all`);
          if (text.nul) this.report(this.stack.length, 'must not contain NUL characters');
          if (text.unpaired) this.report(this.stack.length, 'must not contain unpaired surrogates');
        }
        i = text.end + 1;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (this.countValue()) return this.shape('body', `must not hold more than ${MAX_BODY_VALUES} values in all`);
        if (this.stack.length >= MAX_BODY_DEPTH) return this.shape(this.pathOf(this.stack.length), `must not nest deeper than ${MAX_BODY_DEPTH} levels`);
        const isArray = c === OPEN_ARRAY;
        this.stack.push({ isArray, count: 0, keyStart: 0, keyEnd: 0, keyEscaped: false, expectKey: !isArray });
        i += 1;
        continue;
      }
      if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.stack.pop();
        i += 1;
        continue;
      }
      if (c === COMMA) {
        if (top?.isArray) top.count += 1;
        else if (top) top.expectKey = true;
        i += 1;
        continue;
      }
      if (c === COLON || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i += 1;
        continue;
      }
      // A number, true, false or null (or bytes the parser will refuse): one value, up to its end.
      if (this.countValue()) return this.shape('body', `must not hold more than ${MAX_BODY_VALUES} values in all`);
      i += 1;
      while (i < length && !isDelimiter(bytes[i]!)) i += 1;
    }
    return { errors: this.errors, shape: false };
  }

  /** Counts one more value; true once there are too many. */
  private countValue(): boolean {
    this.values += 1;
    return this.values > MAX_BODY_VALUES;
  }

  private shape(field: string, message: string): BodyProblems {
    return { errors: [{ field, message }], shape: true };
  }

  /** Reports a problem at the path of the value at the current position of the first `depth` open containers. */
  private report(depth: number, message: string): void {
    // The path costs a walk of the open containers: spelled out only for problems that are reported.
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ field: this.pathOf(depth), message });
  }

  /** A member name's problems, reported at the object that holds it. */
  private keyProblems(text: StringFlags): void {
    const holder = this.stack.length - 1;
    if (text.nul) this.report(holder, 'keys must not contain NUL characters');
    if (text.unpaired) this.report(holder, 'keys must not contain unpaired surrogates');
    const reserved = this.reservedKey(this.stack[holder]!);
    if (reserved !== undefined) this.report(holder, `key "${reserved}" is reserved`);
  }

  /** The reserved key the current member is named, if it is one. */
  private reservedKey(frame: Frame): string | undefined {
    if (frame.keyEscaped) {
      const name = this.keyOf(frame);
      return RESERVED_BODY_KEYS.includes(name) ? name : undefined;
    }
    const size = frame.keyEnd - frame.keyStart;
    for (let k = 0; k < RESERVED_KEY_BYTES.length; k++) {
      const key = RESERVED_KEY_BYTES[k]!;
      if (key.length !== size) continue;
      let same = true;
      for (let j = 0; j < size && same; j++) same = this.bytes[frame.keyStart + j] === key[j];
      if (same) return RESERVED_BODY_KEYS[k];
    }
    return undefined;
  }

  /**
   * Reads a string token from just after its opening quote: where its closing quote is, and what its
   * escapes hold (a NUL, a surrogate without its other half). Bytes outside escapes are valid UTF-8
   * (checked before this pass), which encodes no surrogate and whose NUL the parser refuses in a string.
   */
  private readString(start: number): StringFlags {
    const bytes = this.bytes;
    const flags: StringFlags = { end: bytes.length, escaped: false, nul: false, unpaired: false };
    let pendingHigh = false;
    let i = start;
    while (i < bytes.length) {
      const c = bytes[i]!;
      if (c === QUOTE) {
        flags.end = i;
        break;
      }
      if (c !== BACKSLASH) {
        if (pendingHigh) flags.unpaired = true;
        pendingHigh = false;
        i += 1;
        continue;
      }
      flags.escaped = true;
      if (bytes[i + 1] !== 0x75 /* u */) {
        if (pendingHigh) flags.unpaired = true;
        pendingHigh = false;
        i += 2;
        continue;
      }
      const unit = hex4(bytes, i + 2);
      i += 6;
      if (unit === 0) flags.nul = true;
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        if (!pendingHigh) flags.unpaired = true;
        pendingHigh = false;
      } else {
        if (pendingHigh) flags.unpaired = true;
        pendingHigh = unit >= 0xd800 && unit <= 0xdbff;
      }
    }
    if (pendingHigh) flags.unpaired = true;
    return flags;
  }

  /** The current member name of an object frame, as the parser will read it. */
  private keyOf(frame: Frame): string {
    const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).toString('utf8', frame.keyStart, frame.keyEnd);
    if (!frame.keyEscaped) return text;
    try {
      return JSON.parse(`"${text}"`) as string;
    } catch {
      return text;
    }
  }

  /** The path of the value at the current position of the first `depth` open containers (`body` for none). */
  private pathOf(depth: number): string {
    let path = '';
    for (let d = 0; d < depth; d++) {
      const frame = this.stack[d]!;
      path = frame.isArray ? `${path}[${frame.count}]` : path ? `${path}.${this.keyOf(frame)}` : this.keyOf(frame);
    }
    return path || 'body';
  }
}

/** Where a number or a literal (true, false, null) ends. */
function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT || c === COLON || c === QUOTE || c === OPEN_ARRAY || c === OPEN_OBJECT || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The code unit of four hex digits at `at`, or -1 when they are not four hex digits. */
function hex4(bytes: Uint8Array, at: number): number {
  let unit = 0;
  for (let k = 0; k < 4; k++) {
    const c = bytes[at + k];
    const digit = c === undefined ? -1 : c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}
