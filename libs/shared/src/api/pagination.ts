import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { QueryInt } from './query';

export const MAX_LIMIT = 100;

/** `limit` and `offset` query parameters; the default limit depends on the list (50, or 20 for posts). */
export class PageQuery {
  @ApiPropertyOptional({ type: Number, minimum: 1, description: 'Page size; values above 100 are clamped to 100' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  readonly limit?: number;

  @ApiPropertyOptional({ type: Number, minimum: 0, default: 0 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
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
  @ApiProperty({ example: 120, description: 'All matching records' })
  readonly total!: number;
  @ApiProperty({ example: 50, description: 'The limit applied' })
  readonly limit!: number;
  @ApiProperty({ example: 0, description: 'The offset applied' })
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

/**
 * The RFC 8288 `Link` value of a page answer (`{ data: [...], meta: PageMeta }`) to the request at
 * `url` (path and query as received): `first`, `prev` when offset > 0 and `next` when more follow,
 * each keeping every other query parameter as sent. Undefined for anything that is not a page.
 */
export function paginationLinks(url: string, body: unknown): string | undefined {
  const meta = (body as { meta?: Partial<PageMeta> & { next_cursor?: unknown } } | null)?.meta;
  const data = (body as { data?: unknown } | null)?.data;
  if (!meta || !Array.isArray(data) || typeof meta.hasMore !== 'boolean') return undefined;
  const queryAt = url.indexOf('?');
  // Only what a URI-reference may hold: anything else in the path as received is percent-encoded.
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(/[^\x21-\x7e]|[<>"\\^`{|}]/g, (c) =>
    encodeURIComponent(c),
  );
  const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
  if ('next_cursor' in meta) return cursorLinks(path, query, meta.next_cursor);
  if (typeof meta.limit !== 'number' || typeof meta.offset !== 'number') return undefined;
  const { limit, offset } = meta;
  const link = (at: number, rel: string): string => {
    query.set('limit', String(limit));
    query.set('offset', String(at));
    return `<${path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [link(0, 'first')];
  if (offset > 0) links.push(link(Math.max(0, offset - limit), 'prev'));
  if (meta.hasMore) links.push(link(offset + data.length, 'next'));
  return links.join(', ');
}


/** A cursor feed (`meta.next_cursor`): `first` without a cursor, `next` from the one given (to keep following). */
function cursorLinks(path: string, query: URLSearchParams, cursor: unknown): string {
  query.delete('after');
  const links = [`<${path}${query.size > 0 ? `?${query.toString()}` : ''}>; rel="first"`];
  if (typeof cursor === 'string') {
    query.set('after', cursor);
    links.push(`<${path}?${query.toString()}>; rel="next"`);
  }
  return links.join(', ');
}
