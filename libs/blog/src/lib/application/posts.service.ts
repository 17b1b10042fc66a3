import { Injectable } from '@nestjs/common';
import {
  assertChanges,
  Clock,
  DomainError,
  FieldError,
  ListTotal,
  newId,
  NotFoundError,
  Outbox,
  Precondition,
  Transactions,
} from '@almanac/shared';
import { newPost, type PostInput, type PostListCriteria, type PostView } from '../domain/post';
import { resolvePublication } from '../domain/post-status';
import { postChanged, postDeleted } from '../domain/blog-announcements';
import { PostRepository } from '../infrastructure/post.repository';
import { PostRevisionRepository } from '../infrastructure/post-revision.repository';
import { SearchRankingCache } from '../infrastructure/search-ranking-cache';

/** Who acts: the API key's organization and the user it was issued for. */
export interface Actor {
  readonly organizationId: string;
  readonly userId: string | null;
}

/** A new post; its `authorId` undefined: the actor's user, null: no author. */
export type CreatePostCommand = PostInput;

/** Every field optional: undefined leaves it unchanged, null clears a nullable field. */
export type UpdatePostCommand = Partial<CreatePostCommand>;

class InvalidReferencesError extends DomainError {
  constructor(errors: FieldError[]) {
    super('invalid_reference', 'The request names records that do not exist in the organization.', errors);
  }
}

@Injectable()
export class PostsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly posts: PostRepository,
    private readonly rankings: SearchRankingCache,
    private readonly outbox: Outbox,
    private readonly revisions: PostRevisionRepository,
  ) {}

  async list(criteria: Omit<PostListCriteria, 'now'>): Promise<{ posts: PostView[]; total: ListTotal }> {
    return this.posts.list({ ...criteria, now: this.clock.now() });
  }

  async get(organizationId: string, id: string): Promise<PostView> {
    const post = await this.posts.findView(organizationId, id, this.clock.now());
    if (!post) throw new NotFoundError('Post');
    return post;
  }

  async create(actor: Actor, command: CreatePostCommand): Promise<PostView> {
    return this.rankings.invalidatingAfter(actor.organizationId, this.transactions.run(async () => {
      const now = this.clock.now();
      const publication = resolvePublication(undefined, { status: command.status, publishedAt: command.publishedAt }, now);
      await this.checkReferences(actor.organizationId, command);
      const authorId =
        command.authorId !== undefined ? command.authorId : await this.defaultAuthor(actor);
      const id = newId();
      await this.posts.insert(newPost({ id, organizationId: actor.organizationId, authorId }, command, publication, now));
      if (command.tagIds?.length) await this.posts.replaceTags(actor.organizationId, id, command.tagIds);
      await this.revisions.record([{ organizationId: actor.organizationId, postId: id, id: newId() }], now);
      const created = (await this.posts.findView(actor.organizationId, id, now))!;
      await this.outbox.announce(...postChanged(null, created, now));
      return created;
    }));
  }

  /**
   * A PATCH. It stores a revision when it changed any stored field (`alwaysRevise`: in any case, for
   * a restore, which is itself a revision).
   */
  async update(
    actor: Actor,
    id: string,
    command: UpdatePostCommand,
    precondition = Precondition.none<PostView>(),
    { alwaysRevise = false }: { alwaysRevise?: boolean } = {},
  ): Promise<PostView> {
    assertChanges(command);
    return this.rankings.invalidatingAfter(actor.organizationId, this.transactions.run(async () => {
      const now = this.clock.now();
      // Locked: the publisher (SKIP LOCKED) leaves this post alone until the change is committed.
      const current = await this.posts.lockForUpdate(actor.organizationId, id);
      if (!current) throw new NotFoundError('Post');
      if (precondition.required) precondition.assert((await this.posts.findView(actor.organizationId, id, now))!);
      const publication = resolvePublication(current, { status: command.status, publishedAt: command.publishedAt }, now);
      await this.checkReferences(actor.organizationId, command);
      const { tagIds: _tagIds, status: _status, publishedAt: _publishedAt, ...fields } = command;
      const changes = { ...fields, status: publication.status, publishedAt: publication.publishedAt, updatedAt: now };
      await this.posts.update(actor.organizationId, id, changes);
      if (command.tagIds !== undefined) await this.posts.replaceTags(actor.organizationId, id, command.tagIds);
      await this.revisions.record([{ organizationId: actor.organizationId, postId: id, id: newId() }], now, alwaysRevise);
      const updated = (await this.posts.findView(actor.organizationId, id, now))!;
      // An overdue scheduled post already reads as published: the scheduler announces it, not this change.
      const before = current.status === 'scheduled' && current.publishedAt !== null && current.publishedAt <= now ? 'published' : current.status;
      await this.outbox.announce(...postChanged(before, updated, now));
      return updated;
    }));
  }

  /** Returns the deleted id. */
  async delete(organizationId: string, id: string, precondition = Precondition.none<PostView>()): Promise<string> {
    const deleted = await this.rankings.invalidatingAfter(
      organizationId,
      this.transactions.run(async () => {
        await precondition.checkLocked(() => this.posts.lockView(organizationId, id, this.clock.now()));
        const gone = await this.posts.delete(organizationId, id);
        if (gone !== null) {
          await this.outbox.announce(postDeleted(organizationId, gone, this.clock.now()));
        }
        return gone;
      }),
    );
    if (deleted === null) throw new NotFoundError('Post');
    return deleted;
  }

  /** category_id, tag_ids and author_id must name records of the organization (422 otherwise). */
  private async checkReferences(organizationId: string, command: UpdatePostCommand): Promise<void> {
    const errors: FieldError[] = [];
    if (command.categoryId && !(await this.posts.categoryExists(organizationId, command.categoryId))) {
      errors.push({ field: 'category_id', message: 'no such category in the organization' });
    }
    if (command.tagIds?.length) {
      const missing = new Set((await this.posts.missingTagIds(organizationId, command.tagIds)).map((tagId) => tagId.toLowerCase()));
      command.tagIds.forEach((tagId, index) => {
        if (missing.has(tagId.toLowerCase())) errors.push({ field: `tag_ids[${index}]`, message: 'no such tag in the organization' });
      });
    }
    if (command.authorId && !(await this.posts.userExists(organizationId, command.authorId))) {
      errors.push({ field: 'author_id', message: 'no such user in the organization' });
    }
    if (errors.length > 0) throw new InvalidReferencesError(errors);
  }

  /** The user the API key was issued for, when it belongs to the organization. */
  private async defaultAuthor(actor: Actor): Promise<string | null> {
    if (!actor.userId) return null;
    return (await this.posts.userExists(actor.organizationId, actor.userId)) ? actor.userId : null;
  }
}
