import { ApiExtraModels, ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { POST_FIELDS, representPost, type PostView, type TermView } from '../../domain';
import { POST_STATUSES, PostStatus } from '../../domain/post-status';
import { ApiContentBlocks, CONTENT_BLOCK_MODELS, ContentBlockDto } from './content-block.dto';

export class PostTagRef {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'PostgreSQL' }) readonly name!: string;
  @ApiProperty({ example: 'postgresql' }) readonly slug!: string;
}

/*
 * Nullable objects are written out inline: OpenAPI 3.0 ignores `nullable` beside a `$ref`, and a
 * `$ref` inside `allOf` would refuse the null.
 */
const CATEGORY_REF: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['id', 'name', 'slug'],
  selfRequired: true,
  properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, slug: { type: 'string' } },
  description: 'The category, or null',
};
const AUTHOR_REF: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['id', 'name'],
  selfRequired: true,
  properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } },
  description: 'The author (a user of the organization), or null',
};

/** A post as lists show it: everything but the content. */
export class PostListItem {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'How we schedule our week' }) readonly title!: string;
  @ApiProperty({ example: 'how-we-schedule' }) readonly slug!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Three habits that keep our calendar sane.' }) readonly excerpt!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/cover.jpg' }) readonly featured_image_url!: string | null;
  @ApiProperty({ enum: POST_STATUSES, description: 'An overdue scheduled post reads as published' }) readonly status!: PostStatus;
  @ApiProperty() readonly is_featured!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readonly published_at!: string | null;
  @ApiProperty(CATEGORY_REF) readonly category!: { id: string; name: string; slug: string } | null;
  @ApiProperty(AUTHOR_REF) readonly author!: { id: string; name: string } | null;
  @ApiProperty({ type: [PostTagRef], description: 'By name' }) readonly tags!: readonly PostTagRef[];
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiProperty({ format: 'date-time' }) readonly updated_at!: string;
}

/** A post with its content (single read, create, update). */
@ApiExtraModels(...CONTENT_BLOCK_MODELS)
export class Post extends PostListItem {
  @ApiContentBlocks({ required: true, description: 'Content blocks, exactly as stored' })
  readonly content!: ContentBlockDto[];
}

export class PostCategory {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'Engineering' }) readonly name!: string;
  @ApiProperty({ example: 'engineering' }) readonly slug!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Published posts in the category' }) readonly post_count!: number;
}

export class PostTag {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'PostgreSQL' }) readonly name!: string;
  @ApiProperty({ example: 'postgresql' }) readonly slug!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Published posts with the tag' }) readonly post_count!: number;
}

export class BlogDeletion {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ enum: [true] }) readonly deleted!: true;
}

export function toPostListItem(view: PostView): PostListItem {
  return POST_FIELDS.represent(view);
}

export function toPost(view: PostView): Post {
  // Content blocks are stored and shown exactly as sent: the same values as the DTO's classes describe.
  return representPost(view) as Post;
}

export function toTerm(view: TermView): PostCategory & PostTag {
  return { id: view.id, name: view.name, slug: view.slug, post_count: view.postCount };
}

/** The bodies of the single-record GETs (and PATCH answers): what their ETags are taken of. */
export const postBody = (view: PostView): { data: Post } => ({ data: toPost(view) });
export const termBody = (view: TermView): { data: PostCategory & PostTag } => ({ data: toTerm(view) });
