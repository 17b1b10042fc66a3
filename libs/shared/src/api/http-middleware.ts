import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isUtf8 } from 'node:buffer';
import { json } from 'express';
import { findBodyProblems, findHeaderProblems, findNulBytes, MAX_BODY_BYTES, MAX_REPORTED_ERRORS, REQUEST_ID_PATTERN } from './body-checks';
import type { FieldError } from '../domain/domain-error';
import { HttpProblem } from './problem-details.filter';

export { MAX_BODY_BYTES } from './body-checks';

/** Work done on the raw Node request and response before Express sees them (see AlmanacExpressAdapter). */
export type FrontDoorStep = (req: IncomingMessage, res: ServerResponse) => void;

/** Takes `X-Request-Id` from the request when it is well-formed, otherwise makes one, and echoes it. */
export function requestIdStep(): FrontDoorStep {
  return (req, res) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    (req as IncomingMessage & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
  };
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** What the body check found in a body that parsed, kept from body-parser's verify step to its callback. */
const foundInBody = new WeakMap<object, FieldError[]>();

/**
 * JSON bodies only, at most 1 MiB. Errors become problems: 415 for another media type, 413 when
 * too large, 400 `invalid_json` when unparseable, 400 `validation_failed` for what the body check
 * finds (see findBodyProblems) and for NUL characters in the query string.
 */
export function jsonBodyMiddleware(): RequestHandler {
  const parse = json({
    limit: MAX_BODY_BYTES,
    strict: false,
    type: () => true,
    verify: (req, _res, raw) => {
      // body-parser would decode invalid UTF-8 into U+FFFD and store what the client never sent.
      if (!isUtf8(raw)) throw Object.assign(new Error('The request body is not valid UTF-8.'), { type: 'encoding.invalid' });
      // Checked on the bytes, before JSON.parse: a body past a bound on its shape is not parsed at all.
      const problems = findBodyProblems(raw);
      if (problems.shape) throw Object.assign(new Error('The request body is too large in shape.'), { type: 'body.shape', errors: problems.errors });
      if (problems.errors.length > 0) foundInBody.set(req, problems.errors);
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) {
      req.body = undefined;
      return next(bodyProblem(req));
    }
    if (!req.is(['application/json', 'application/*+json']) || !isUtf8Charset(req)) {
      return next(
        new HttpProblem({
          status: 415,
          code: 'unsupported_media_type',
          detail: 'Request bodies must be sent as application/json.',
        }),
      );
    }
    parse(req, res, (error?: unknown) => {
      if (error) {
        const type = (error as { type?: string }).type;
        if (type === 'entity.too.large') {
          return next(
            new HttpProblem({
              status: 413,
              code: 'payload_too_large',
              detail: 'The request body is larger than 1 MiB.',
            }),
          );
        }
        if (type === 'body.shape') {
          return next(new HttpProblem({ status: 400, code: 'validation_failed', detail: 'The request is invalid.', errors: (error as { errors: FieldError[] }).errors }));
        }
        if (type === 'encoding.invalid') {
          return next(new HttpProblem({ status: 400, code: 'invalid_json', detail: 'The request body is not valid UTF-8.' }));
        }
        if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
          return next(
            new HttpProblem({
              status: 415,
              code: 'unsupported_media_type',
              detail: 'Only UTF-8 JSON is accepted.',
            }),
          );
        }
        return next(
          new HttpProblem({
            status: 400,
            code: 'invalid_json',
            detail: 'The request body is not valid JSON.',
          }),
        );
      }
      next(bodyProblem(req));
    });
  };
}

/** JSON is UTF-8 (RFC 8259 §8.1): a charset parameter, when present, must say so. */
function isUtf8Charset(req: Request): boolean {
  return isUtf8ContentType(req.headers['content-type'] ?? '');
}

/** Whether a Content-Type's charset parameter, when present, names UTF-8. */
export function isUtf8ContentType(contentType: string): boolean {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return !match || /^utf-?8$/i.test(match[1]!);
}

/**
 * Headers the API reads that hold control characters, NUL characters in the query string and what the
 * body check found in a body that parsed, as a problem naming the fields. A NUL can only reach the query string percent-encoded (the HTTP parser
 * refuses raw ones), so the parsed query is searched only when the raw URL holds `%00`.
 */
function bodyProblem(req: Request): unknown {
  // Runs in body-parser's callback, outside every try/catch of the pipeline: nothing may escape it.
  try {
    return findProblems(req);
  } catch (error) {
    return error;
  }
}

function findProblems(req: Request): HttpProblem | undefined {
  const errors = [...findHeaderProblems(req.headers), ...((req.url ?? '').includes('%00') ? findNulBytes(req.query) : []), ...(foundInBody.get(req) ?? [])];
  if (errors.length === 0) return undefined;
  return new HttpProblem({
    status: 400,
    code: 'validation_failed',
    detail: 'The request is invalid.',
    errors: errors.slice(0, MAX_REPORTED_ERRORS),
  });
}

/**
 * Helmet's headers, computed once: helmet runs a dozen middleware functions per request to set
 * values that never change, so run it once at start-up against a recording response and replay.
 */
export function precomputedHeadersStep(
  middleware: (req: never, res: never, next: (error?: unknown) => void) => void,
): FrontDoorStep {
  const headers: Array<[string, string | number | readonly string[]]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.push([name, value]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  let failed: unknown;
  middleware(
    { headers: {}, method: 'GET', url: '/' } as never,
    recorder as never,
    (error?: unknown) => (failed = error),
  );
  if (failed) throw failed;
  return (_req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}
