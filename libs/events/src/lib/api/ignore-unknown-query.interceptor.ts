import { CallHandler, ExecutionContext, Injectable, mixin, NestInterceptor, Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import type { Observable } from 'rxjs';

/**
 * Unknown query parameters are ignored (api-decisions §4), while the global ValidationPipe forbids
 * properties its DTO does not name. This drops the parameters `dto` does not declare before the pipe
 * sees them, so `?utm_source=x` is harmless and a known parameter is still validated strictly.
 */
export function IgnoreUnknownQuery(dto: Type<unknown>): Type<NestInterceptor> {
  const known = new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName));

  @Injectable()
  class IgnoreUnknownQueryInterceptor implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const req = context.switchToHttp().getRequest<Request>();
      const query = Object.fromEntries(Object.entries(req.query ?? {}).filter(([name]) => known.has(name)));
      // Express 5 computes req.query in a getter; an own property shadows it for the pipes.
      Object.defineProperty(req, 'query', { value: query, configurable: true, enumerable: true, writable: true });
      return next.handle();
    }
  }
  return mixin(IgnoreUnknownQueryInterceptor);
}
