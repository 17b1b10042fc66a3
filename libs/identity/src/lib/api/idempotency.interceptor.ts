import { CallHandler, ExecutionContext, HttpStatus, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { DomainError, isDatabaseUnavailable, ValidationFailedError } from '@almanac/shared';
import type { Response } from 'express';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { IDEMPOTENCY_KEY_MAX_LENGTH, requestFingerprint } from '../domain/request-fingerprint';
import { IdempotencyStore } from '../infrastructure/idempotency.store';
import type { RequestWithPrincipal } from './api-key.guard';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * `Idempotency-Key` on `POST /api/v1/*` (docs/contract/http.md), for every context: the first successful
 * response is stored per organization and key for 24 h and replayed with `Idempotent-Replayed: true`;
 * the same key with another request → 422 `idempotency_key_reused`; while the first runs → 409
 * `idempotency_in_progress`. Error responses are not stored: the key is released so the client can
 * correct the request and retry with it.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    // Attached only by IdempotentPosts() (decorators.ts): an HTTP POST handler of a V1Controller,
    // whose ApiKeyGuard has set `principal`. The path check stays: Express routes ignore case, and
    // a POST to `/API/V1/...` reaches the same handler: compare and fingerprint the path in lower case.
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithPrincipal>();
    const header = req.headers[IDEMPOTENCY_HEADER];
    const path = req.path.toLowerCase();
    if (header === undefined || !path.startsWith('/api/v1/')) return next.handle();

    const key = Array.isArray(header) ? header.join(',') : header;
    if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw new ValidationFailedError([{ field: 'Idempotency-Key', message: `must be 1-${IDEMPOTENCY_KEY_MAX_LENGTH} characters` }]);
    }
    const res = http.getResponse<Response>();
    const begun = await this.store.begin(req.principal!.organizationId, key, requestFingerprint(req.method, path + req.originalUrl.slice(req.path.length), req.body));
    switch (begun.kind) {
      case 'mismatch':
        throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request.');
      case 'in_progress':
        throw new DomainError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed.');
      case 'replay':
        res.setHeader('Idempotent-Replayed', 'true');
        if (begun.response.location) res.setHeader('Location', begun.response.location);
        res.status(begun.response.status);
        return of(begun.response.body);
      case 'started': {
        // Nest answers with the handler's @HttpCode, else 201 for POST; the replay must match it.
        const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
        const attemptId = begun.attemptId;
        return next.handle().pipe(
          mergeMap(async (body: unknown) => {
            const location = res.getHeader('Location');
            try {
              await this.store.complete(attemptId, { status, body, location: typeof location === 'string' ? location : null });
            } catch (error) {
              // The work is done and committed: answer it. The key stays "in progress" until it goes stale.
              this.logger.error({ err: error }, 'could not store an idempotent response');
            }
            return body;
          }),
          catchError((error: unknown) => {
            // The database went away during the work, which may still commit when it is back: the key
            // stays in progress (a retry gets 409 until it goes stale, as after a crash), and the 503
            // is not held up by a release that would wait for the database too.
            if (isDatabaseUnavailable(error)) return throwError(() => error);
            return from(this.store.release(attemptId).catch((releaseError: unknown) => this.logger.warn({ err: releaseError }, 'could not release an idempotency key'))).pipe(
              mergeMap(() => throwError(() => error)),
            );
          }),
        );
      }
    }
  }
}
