import { Injectable } from '@nestjs/common';
import { ListTotal, NotFoundError, Page, Precondition } from '@almanac/shared';
import type { PostView } from '../domain/post';
import type { PostRevision } from '../domain/post-revision';
import { PostRevisionRepository } from '../infrastructure/post-revision.repository';
import { Actor, PostsService } from './posts.service';

/** A post's history: its revisions (recorded by every write, see PostsService) and restoring one. */
@Injectable()
export class PostRevisionsService {
  constructor(
    private readonly revisions: PostRevisionRepository,
    private readonly posts: PostsService,
  ) {}

  /** Newest first; an unknown post (or another organization's) is not found. */
  async list(organizationId: string, postId: string, page: Page): Promise<{ items: PostRevision[]; total: ListTotal }> {
    if (!(await this.revisions.postExists(organizationId, postId))) throw new NotFoundError('Post');
    return this.revisions.page(organizationId, postId, page);
  }

  async get(organizationId: string, postId: string, revisionId: string): Promise<PostRevision> {
    const revision = await this.revisions.find(organizationId, postId, revisionId);
    if (!revision) throw new NotFoundError('Revision');
    return revision;
  }

  /**
   * The post takes back the revision's title, excerpt, content and featured image; its slug, status,
   * dates and terms stay. It is a PATCH of those four fields (same lock, If-Match, post.updated event
   * and search refresh), recorded as a new revision even when it changes nothing. A revision never
   * changes once written, so reading it before the write's transaction is safe.
   */
  async restore(actor: Actor, postId: string, revisionId: string, precondition = Precondition.none<PostView>()): Promise<PostView> {
    const revision = await this.get(actor.organizationId, postId, revisionId);
    return this.posts.update(
      actor,
      postId,
      { title: revision.title, excerpt: revision.excerpt, content: revision.content ?? [], featuredImageUrl: revision.featuredImageUrl },
      precondition,
      { alwaysRevise: true },
    );
  }
}
