import { CallHandler, ExecutionContext, Injectable, mixin, NestInterceptor, Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import type { Observable } from 'rxjs';

/**
 * api-decisions §4: unknown query parameters are ignored. The global ValidationPipe forbids names
 * its DTO does not declare, so the query is cut down to the names `dto` declares (inherited ones
 * included) before the pipe runs; declared parameters are still validated strictly.
 */
export function KnownQueryOnly(dto: Type<unknown>): Type<NestInterceptor> {
  const declared = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((metadata) => metadata.propertyName),
  );

  @Injectable()
  class KnownQueryOnlyInterceptor implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const req = context.switchToHttp().getRequest<Request>();
      const kept = Object.fromEntries(Object.entries(req.query ?? {}).filter(([name]) => declared.has(name)));
      // Express 5 derives req.query in a getter; an own property shadows it for the pipes.
      Object.defineProperty(req, 'query', { value: kept, configurable: true, enumerable: true, writable: true });
      return next.handle();
    }
  }
  return mixin(KnownQueryOnlyInterceptor);
}
