import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { QueryInt } from './query';

export const MAX_LIMIT = 100;
/** The largest integer a query parameter can carry (QueryInt converts at most 15 digits). */
export const MAX_QUERY_INTEGER = 999_999_999_999_999;

/** `limit` and `offset` query parameters; the default limit depends on the list (50, or 20 for posts). */
export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', default: 50, description: 'Page size; values above 100 are clamped to 100' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_QUERY_INTEGER)
  readonly limit?: number;

  @ApiPropertyOptional({ type: 'integer', default: 0, description: 'Records to skip' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(0)
  @Max(MAX_QUERY_INTEGER)
  readonly offset?: number;
}

export interface Page {
  readonly limit: number;
  readonly offset: number;
}

export function resolvePage(query: { limit?: number; offset?: number }, defaultLimit = 50): Page {
  return { limit: Math.min(query.limit ?? defaultLimit, MAX_LIMIT), offset: query.offset ?? 0 };
}

export class PageMeta {
  @ApiProperty({ type: 'integer', minimum: 0, example: 120, description: 'All matching records' })
  readonly total!: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, example: 50, description: 'The limit applied' })
  readonly limit!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 0, description: 'The offset applied' })
  readonly offset!: number;
  @ApiProperty({ example: true, description: 'Whether more records follow the returned ones' })
  readonly hasMore!: boolean;
}

export interface ListResponse<T> {
  data: T[];
  meta: PageMeta;
}

export function pageOf<T>(data: T[], total: number, page: Page): ListResponse<T> {
  return {
    data,
    meta: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + data.length < total },
  };
}
