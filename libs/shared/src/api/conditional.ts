import { applyDecorators, createParamDecorator, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transactions } from '../database/transactions';
import { DomainError } from '../domain/domain-error';
import { entityTagOf, parseEntityTags } from './http-semantics';

/**
 * HTTP conditional requests (RFC 9110 §13; docs/contract/http.md), written once for every context:
 *
 * - A route decorated with `@Conditional()` answers with a strong `ETag`: the SHA-256 of the exact
 *   JSON body it sends, so it changes with every change of what the client sees (a renamed tag in a
 *   post, a registration's waiting-list position) and never otherwise. A GET whose `If-None-Match`
 *   names it gets 304 without a body. The adapter computes it from the bytes it writes
 *   (`AlmanacExpressAdapter.reply`): one `JSON.stringify`, as for any answer.
 * - A PATCH or DELETE takes `@IfMatch()`, turns it into a `Precondition` of its record with the same
 *   representation its GET sends, and hands it to the service, which checks it with
 *   `checkLocked` inside the transaction of the write, on the record as its repository's row lock
 *   reads it: two writes with the same `If-Match` cannot both pass. A mismatch is 412
 *   `precondition_failed` and nothing changes.
 */

export class PreconditionFailedError extends DomainError {
  constructor() {
    super('precondition_failed', 'The record changed since the ETag in If-Match was issued; fetch it again.');
  }
}

/** The `If-Match` of a request, to be bound to a record's representation by the controller. */
export class IfMatchHeader {
  constructor(private readonly value: string | undefined) {}

  /** The precondition on a record whose GET body is `represent(record)`. */
  of<T>(represent: (record: T) => unknown): Precondition<T> {
    return new Precondition(parseEntityTags(this.value), represent);
  }
}

/** An `If-Match` bound to how its record is represented; `Precondition.none()` when there was none. */
export class Precondition<T> {
  constructor(
    private readonly tags: ReturnType<typeof parseEntityTags>,
    private readonly represent: (record: T) => unknown,
  ) {}

  static none<T>(): Precondition<T> {
    return new Precondition<T>(undefined, () => undefined);
  }

  get required(): boolean {
    return this.tags !== undefined;
  }

  /**
   * Inside the write's transaction: takes the record's row lock through its repository (`lock` reads
   * the record as it is now, `FOR UPDATE`) and asserts the precondition, so two writes with the same
   * `If-Match` cannot both pass. Nothing happens without one; a missing record is left to the write (404).
   */
  async checkLocked(lock: () => Promise<T | null>): Promise<void> {
    if (!this.required) return;
    const current = await lock();
    if (current) this.assert(current);
  }

  /** 412 unless the record as it is now has one of the listed tags (strong comparison; `*` matches any). */
  assert(record: T): void {
    if (!this.tags || this.tags.any) return;
    const tag = entityTagOf(JSON.stringify(this.represent(record)));
    if (!this.tags.strong.includes(tag)) throw new PreconditionFailedError();
  }
}

/**
 * A write of one statement that may carry a precondition: without one it runs as it is (the statement
 * alone); with one, in a transaction that first locks the record through its repository and checks it
 * (`Precondition.checkLocked`).
 */
export function writeUnderPrecondition<T, R>(
  transactions: Transactions,
  precondition: Precondition<T>,
  lock: () => Promise<T | null>,
  write: () => Promise<R>,
): Promise<R> {
  if (!precondition.required) return write();
  return transactions.run(async () => {
    await precondition.checkLocked(lock);
    return write();
  });
}

/** The request's `If-Match` header, for a PATCH or DELETE of a `@Conditional()` record. */
export const IfMatch = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    new IfMatchHeader(context.switchToHttp().getRequest<IncomingMessage>().headers['if-match']),
);

const ETAGGED = Symbol('almanac.etagged');

/** Whether the adapter should tag this answer (set by `@Conditional()` routes). */
export function wantsEntityTag(response: ServerResponse): boolean {
  return (response as ServerResponse & { [ETAGGED]?: true })[ETAGGED] === true;
}

/**
 * Marks the answer of a `@Conditional()` route for the adapter. A guard that always lets the request
 * through, not an interceptor: an interceptor costs every request an rxjs pipeline and two
 * AsyncResource binds (about 30 µs of CPU on the one-row read, `npm run bench -- --cpu-prof`), a
 * guard one call. It runs after the API-key guard, so only requests that get an answer are marked.
 */
class EntityTagMarker implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    (context.switchToHttp().getResponse<ServerResponse & { [ETAGGED]?: true }>())[ETAGGED] = true;
    return true;
  }
}

/** OpenAPI extension read by `applyV1Conventions`, which documents ETag, 304, If-None-Match, If-Match and 412. */
export const CONDITIONAL_EXTENSION = 'x-almanac-conditional';

/**
 * A single-record GET, PATCH or DELETE of a resource with an ETag: GET and PATCH answers carry it,
 * GET honours If-None-Match, PATCH and DELETE document If-Match (their services check it).
 */
export function Conditional(): MethodDecorator {
  return applyDecorators(
    UseGuards(EntityTagMarker),
    ApiExtension(CONDITIONAL_EXTENSION, true),
  );
}
