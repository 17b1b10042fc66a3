import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsSlug, PageQuery, QueryBoolean } from '@almanac/shared';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { POST_ORDER_FIELDS, PostOrderField, SORT_DIRECTIONS, SortDirection } from '../../domain/post';
import { POST_STATUSES, PostStatus } from '../../domain/post-status';

export const MAX_SEARCH_LENGTH = 500;

export class ListPostsQuery extends PageQuery {
  @ApiPropertyOptional({ type: 'integer', default: 20, description: 'Page size; values above 100 are clamped to 100' })
  override readonly limit?: number;

  @ApiPropertyOptional({ enum: POST_STATUSES, description: 'An overdue scheduled post counts as published' })
  @IsOptional()
  @IsIn(POST_STATUSES)
  readonly status?: PostStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'Filter by category id' })
  @IsOptional()
  @IsUUID('all')
  readonly category_id?: string;

  @ApiPropertyOptional({ description: 'Filter by category slug', example: 'engineering' })
  @IsOptional()
  @IsSlug()
  readonly category?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Filter by tag id' })
  @IsOptional()
  @IsUUID('all')
  readonly tag_id?: string;

  @ApiPropertyOptional({ description: 'Filter by tag slug', example: 'postgres' })
  @IsOptional()
  @IsSlug()
  readonly tag?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Filter by author (a user id)' })
  @IsOptional()
  @IsUUID('all')
  readonly author_id?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'true: featured posts only; false: no filter' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  readonly featured?: boolean;

  @ApiPropertyOptional({
    maxLength: MAX_SEARCH_LENGTH,
    description:
      'Full-text search over title, excerpt and content (English stemming; the last word also matches as a prefix; ' +
      '"quoted phrases", `or` and `-word` work as in web search engines). Without order_by, results come by relevance. ' +
      'A search considers the 200 most recent matching posts (by published_at, newest first, then id; after the other ' +
      'filters) and orders those: the results are the best matches among them. `meta.total` counts them; when more ' +
      'posts matched it is 200 with `meta.total_is_lower_bound`. ' +
      'A search with 200 matches or more keeps its ranking for up to 5 s: a write made ' +
      'through another instance of the service can take that long to show in it; writes through the same instance show at once.',
    example: 'sched',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SEARCH_LENGTH)
  readonly search?: string;

  @ApiPropertyOptional({ enum: POST_ORDER_FIELDS, default: 'published_at', description: 'Nulls last; ties by id' })
  @IsOptional()
  @IsIn(POST_ORDER_FIELDS)
  readonly order_by?: PostOrderField;

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'desc' })
  @IsOptional()
  @IsIn(SORT_DIRECTIONS)
  readonly order?: SortDirection;
}
