import { applyDecorators, HttpStatus, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PageMeta } from './pagination';
import { Problem } from './problem';

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (`validation_failed`, `invalid_json`)',
  401: 'Missing or invalid credentials (`unauthorized`)',
  403: 'Not allowed (`forbidden`, `csrf_rejected`)',
  404: 'Unknown id or route, or a record of another organization (`not_found`)',
  409: 'Conflict with the current state',
  413: 'Body over 1 MiB (`payload_too_large`)',
  415: 'Body that is not application/json (`unsupported_media_type`)',
  422: 'A referenced record does not exist, or the request cannot be processed',
  429: 'Rate limit exceeded (`rate_limited`); see Retry-After',
  502: 'An upstream service failed (`upstream_failed`)',
  503: 'The database is unreachable (`database_unavailable`); see Retry-After',
};

/** Documents problem-details responses (application/problem+json) for the given statuses. */
export function ApiProblems(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(Problem),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: PROBLEM_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/problem+json': { schema: { $ref: getSchemaPath(Problem) } } },
      }),
    ),
  );
}

/** `{ data: Model }` with the given success status (200 by default). */
export function ApiDataResponse(model: Type<unknown>, status: number = HttpStatus.OK, description?: string) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: description ?? 'The record',
      schema: { type: 'object', required: ['data'], properties: { data: { $ref: getSchemaPath(model) } } },
    }),
  );
}

/** `{ data: Model[] }` without meta (small fixed collections such as categories). */
export function ApiArrayResponse(model: Type<unknown>, description?: string) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: 200,
      description: description ?? 'All records',
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'array', items: { $ref: getSchemaPath(model) } } },
      },
    }),
  );
}

/** The `Link` header of every page answer (written by the adapter from `{data, meta}`). */
export const PAGE_LINK_HEADER = {
  description:
    'RFC 8288 links to the `first` page, the `prev` page (when offset > 0) and the `next` page (when hasMore), each keeping every filter of this request',
  schema: {
    type: 'string',
    example: '</api/v1/bookings?status=PENDING&limit=50&offset=0>; rel="first", </api/v1/bookings?status=PENDING&limit=50&offset=50>; rel="next"',
  },
};

/** `{ data: Model[], meta: PageMeta }`. */
export function ApiListResponse(model: Type<unknown>, description?: string) {
  return applyDecorators(
    ApiExtraModels(model, PageMeta),
    ApiResponse({
      status: 200,
      description: description ?? 'A page of records',
      headers: { Link: PAGE_LINK_HEADER },
      schema: {
        type: 'object',
        required: ['data', 'meta'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          meta: { $ref: getSchemaPath(PageMeta) },
        },
      },
    }),
  );
}
