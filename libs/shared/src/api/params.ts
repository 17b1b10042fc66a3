import { ParseUUIDPipe } from '@nestjs/common';
import { NotFoundError } from '../domain/domain-error';

/** Path ids are UUIDs; anything else names no record: 404, as for an unknown id. */
export function UuidParam(resource = 'Resource'): ParseUUIDPipe {
  return new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError(resource) });
}
