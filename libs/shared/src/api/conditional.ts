import { applyDecorators, createParamDecorator, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DataSource, EntityManager } from 'typeorm';
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
 *   `checkPrecondition` inside the transaction of the write, after locking the record's row: two
 *   writes with the same `If-Match` cannot both pass. A mismatch is 412 `precondition_failed` and
 *   nothing changes.
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

  /** 412 unless the record as it is now has one of the listed tags (strong comparison; `*` matches any). */
  assert(record: T): void {
    if (!this.tags || this.tags.any) return;
    const tag = entityTagOf(JSON.stringify(this.represent(record)));
    if (!this.tags.strong.includes(tag)) throw new PreconditionFailedError();
  }
}

/** The table and key of a tenant row a precondition is checked on. */
export interface RowRef {
  readonly table: string;
  readonly organizationId: string;
  readonly id: string;
}

/**
 * Inside the write's transaction: locks the row (`FOR UPDATE`), reads the record as it is now and
 * asserts the precondition. Nothing happens without one; a missing row is left to the write (404).
 */
export async function checkPrecondition<T>(
  em: EntityManager,
  precondition: Precondition<T>,
  row: RowRef,
  load: (em: EntityManager) => Promise<T | null | undefined>,
): Promise<void> {
  if (!precondition.required) return;
  if (!/^[a-z_]+$/.test(row.table)) throw new Error(`not a table name: ${row.table}`);
  if (!em.queryRunner?.isTransactionActive) throw new Error('checkPrecondition must run inside the write transaction');
  await em.query(`SELECT 1 FROM ${row.table} WHERE organization_id = $1 AND id = $2 FOR UPDATE`, [row.organizationId, row.id]);
  const current = await load(em);
  if (current) precondition.assert(current);
}

/**
 * A single-statement write that may carry a precondition: without one it runs as it is, on the
 * data source's manager; with one, in a transaction that first checks it (`checkPrecondition`).
 */
export async function writeUnderPrecondition<T, R>(
  dataSource: DataSource,
  precondition: Precondition<T>,
  row: RowRef,
  load: (em: EntityManager) => Promise<T | null | undefined>,
  write: (em: EntityManager) => Promise<R>,
): Promise<R> {
  if (!precondition.required) return write(dataSource.manager);
  return dataSource.transaction(async (em) => {
    await checkPrecondition(em, precondition, row, load);
    return write(em);
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
