import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { DomainError, FieldError } from '../domain/domain-error';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database/db-availability';
import { isTransientConflict } from '../database/conflict-retry';
import { DEFAULT_CODE, errorStatusOf, STATUS_TITLE } from './error-status';
import { PROBLEM_TYPE_BASE } from './problem';

export interface ProblemInit {
  status: number;
  code: string;
  detail: string;
  errors?: readonly FieldError[];
  /** Extension members (RFC 9457 §3.2) added after the standard ones, which they cannot replace. */
  members?: Readonly<Record<string, unknown>>;
  headers?: Record<string, string>;
}

/** Raised by middleware and guards that speak HTTP directly (body parsing, rate limits). */
export class HttpProblem extends Error {
  constructor(readonly init: ProblemInit) {
    super(init.detail);
  }
}

/** 429 `rate_limited` with Retry-After (API-key rate limit, login throttle). */
export function rateLimitedProblem(detail: string, retryAfterSeconds: number): HttpProblem {
  return new HttpProblem({ status: 429, code: 'rate_limited', detail, headers: { 'Retry-After': String(retryAfterSeconds) } });
}

/** The problem+json document (RFC 9457) of `init`, answering the request `requestId`. */
export function problemBody(init: ProblemInit, requestId: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...init.members,
    type: PROBLEM_TYPE_BASE + init.code,
    title: STATUS_TITLE[init.status] ?? 'Error',
    status: init.status,
    detail: init.detail,
    code: init.code,
    request_id: String(requestId ?? ''),
  };
  if (init.errors && init.errors.length > 0) body['errors'] = init.errors;
  return body;
}

export function writeProblem(req: Request, res: Response, init: ProblemInit): void {
  if (res.headersSent) return;
  const body = problemBody(init, (req as Request & { id?: unknown }).id);
  for (const [name, value] of Object.entries(init.headers ?? {})) res.setHeader(name, value);
  if (init.status === 401 && !res.getHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', 'Bearer');
  res.status(init.status).type('application/problem+json').send(JSON.stringify(body));
}

/** PostgreSQL "data exception" class: bad input that slipped past validation must not become a 500. */
function isDataException(error: unknown): boolean {
  const code = (error as { driverError?: { code?: unknown } }).driverError?.code;
  return typeof code === 'string' && code.startsWith('22');
}

/** Express's router could not percent-decode a path parameter: such a path names no resource. */
function isUndecodablePath(exception: unknown): boolean {
  if (exception instanceof URIError) return true;
  const message = exception instanceof Error ? exception.message : '';
  return message.startsWith('Failed to decode param');
}

export function toProblem(exception: unknown): ProblemInit {
  if (exception instanceof HttpProblem) return exception.init;
  // The message would echo the client's bytes: answer as for any unknown id.
  if (isUndecodablePath(exception)) return { status: 404, code: 'not_found', detail: 'No such resource.' };
  if (exception instanceof DomainError) {
    const status = errorStatusOf(exception.code);
    // A code no context registered is a bug, not the client's fault: logged as any 500.
    if (status === undefined) return { status: 500, code: 'internal', detail: 'An internal error occurred.' };
    return {
      status,
      code: exception.code,
      detail: exception.message,
      errors: exception.errors,
      members: exception.members,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'object' && response && 'message' in response
        ? String((response as { message: unknown }).message)
        : exception.message;
    const code = DEFAULT_CODE[status] ?? (status >= 500 ? 'internal' : 'validation_failed');
    if (status === 404 || status === 405) return { status: 404, code: 'not_found', detail: 'No such resource.' };
    return { status, code, detail: status >= 500 ? 'An internal error occurred.' : message };
  }
  if (isDatabaseUnavailable(exception)) {
    return {
      status: 503,
      code: 'database_unavailable',
      detail: 'The database is not reachable at the moment; retry later.',
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
  // Still a deadlock or serialization failure after the data source's retries: the request met
  // concurrent ones and was not applied, which the client may simply send again.
  if (isTransientConflict(exception)) {
    return { status: 409, code: 'write_conflict', detail: 'The request met concurrent changes to the same data and was not applied; send it again.' };
  }
  if (exception instanceof QueryFailedError && isDataException(exception)) {
    return { status: 400, code: 'validation_failed', detail: 'A value in the request is out of range or malformed.' };
  }
  const bodyParserType = (exception as { type?: unknown }).type;
  if (bodyParserType === 'entity.parse.failed') {
    return { status: 400, code: 'invalid_json', detail: 'The request body is not valid JSON.' };
  }
  if (bodyParserType === 'entity.too.large') {
    return { status: 413, code: 'payload_too_large', detail: 'The request body is larger than 1 MiB.' };
  }
  return { status: 500, code: 'internal', detail: 'An internal error occurred.' };
}

/**
 * Answers that are the world's state, not a bug of ours: a database that cannot be reached, writes
 * still conflicting after their retries (409), an external calendar that cannot be read. Logged as
 * warnings with their code; any other 5xx is an error.
 */
const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  database_unavailable: 'database unavailable',
  write_conflict: 'write still conflicting after its retries',
  upstream_failed: 'external calendar could not be read',
};

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const problem = toProblem(exception);
    const requestId = (req as Request & { id?: unknown }).id;
    // The error itself goes to the logger: its `err` serializer (loggableError) describes it once.
    const fields = { err: exception, code: problem.code, status: problem.status, request_id: requestId };
    if (EXPECTED_FAILURES[problem.code]) this.logger.warn(fields, EXPECTED_FAILURES[problem.code]);
    else if (problem.status >= 500) this.logger.error(fields, 'unhandled error while serving request');
    writeProblem(req, res, problem);
  }
}
