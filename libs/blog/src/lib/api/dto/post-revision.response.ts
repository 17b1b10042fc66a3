import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import type { PostRevision } from '../../domain/post-revision';
import { POST_STATUSES, PostStatus } from '../../domain/post-status';
import { ApiContentBlocks, CONTENT_BLOCK_MODELS, ContentBlockDto } from './content-block.dto';

/** A revision as the list shows it: no content. */
export class PostRevisionListItem {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ format: 'date-time', description: 'When the write that made it happened' }) readonly created_at!: string;
  @ApiProperty({ example: 'How we schedule our week' }) readonly title!: string;
  @ApiProperty({ enum: POST_STATUSES, description: 'The stored status the write left (a scheduled post stays scheduled until published)' })
  readonly status!: PostStatus;
}

/** One revision: the post's fields as a write left them. */
@ApiExtraModels(...CONTENT_BLOCK_MODELS)
export class PostRevisionResponse extends PostRevisionListItem {
  @ApiProperty({ format: 'uuid' }) readonly post_id!: string;
  @ApiProperty({ example: 'how-we-schedule' }) readonly slug!: string;
  @ApiProperty({ type: String, nullable: true }) readonly excerpt!: string | null;
  @ApiContentBlocks({ required: true, description: 'Content blocks, as that write left them' })
  readonly content!: ContentBlockDto[];
  @ApiProperty({ type: String, nullable: true }) readonly featured_image_url!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The category then (it may have been deleted since)' })
  readonly category_id!: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', isArray: true, description: 'The tags then, by id (some may have been deleted since)' })
  readonly tag_ids!: string[];
}

export function toRevisionListItem(revision: PostRevision): PostRevisionListItem {
  return { id: revision.id, created_at: revision.createdAt.toISOString(), title: revision.title, status: revision.status };
}

export function toRevision(revision: PostRevision): PostRevisionResponse {
  return {
    ...toRevisionListItem(revision),
    post_id: revision.postId,
    slug: revision.slug,
    excerpt: revision.excerpt,
    content: (revision.content ?? []) as ContentBlockDto[],
    featured_image_url: revision.featuredImageUrl,
    category_id: revision.categoryId,
    tag_ids: [...revision.tagIds],
  };
}
