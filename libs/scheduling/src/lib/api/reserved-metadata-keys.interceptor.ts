import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ValidationFailedError } from '@almanac/shared';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { reservedMetadataKeyProblems } from '../domain/booking-metadata';

/**
 * The global ValidationPipe deletes `__proto__`, `constructor` and `prototype` keys from bodies in
 * place. For booking metadata that would silently drop data, so such keys are refused (400) here,
 * before the pipe runs.
 */
@Injectable()
export class ReservedMetadataKeysInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const body = context.switchToHttp().getRequest<Request>().body as { metadata?: unknown } | undefined;
    const problems = body && typeof body === 'object' ? reservedMetadataKeyProblems(body.metadata) : [];
    if (problems.length > 0) {
      throw new ValidationFailedError(problems.map((message) => ({ field: 'metadata', message })));
    }
    return next.handle();
  }
}
