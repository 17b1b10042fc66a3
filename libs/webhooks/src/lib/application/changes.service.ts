import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ValidationFailedError } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { CursorPosition, decodeCursor, encodeCursor } from '../domain/feed-cursor';
import { readableEventTypes } from './event-types';
import type { FeedEvent } from '../domain/webhook';
import { WebhookRepository } from '../infrastructure/webhook.repository';

export const CHANGES_DEFAULT_LIMIT = 100;
export const CHANGES_MAX_LIMIT = 1000;

/** The change feed: every committed event of the organization exactly once, in a stable commit-safe order. */
@Injectable()
export class ChangesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: WebhookRepository,
  ) {}

  async page(
    organizationId: string,
    scopes: readonly string[],
    after: string | undefined,
    limit: number,
  ): Promise<{ events: FeedEvent[]; nextCursor: string | null; hasMore: boolean }> {
    let position: CursorPosition | null = null;
    if (after !== undefined) {
      position = decodeCursor(after);
      if (!position)
        throw new ValidationFailedError([{ field: 'after', message: 'is not a cursor this feed gave out' }]);
    }
    const types = readableEventTypes(scopes);
    const rows = await this.repository.changes(
      this.dataSource.manager,
      organizationId,
      position,
      types,
      limit + 1,
    );
    const events = rows.slice(0, limit);
    const last = events.at(-1);
    // With nothing new, the cursor stays where it was: the client asks again from there.
    const nextCursor = last ? encodeCursor(last) : (after ?? null);
    return { events, nextCursor, hasMore: rows.length > limit };
  }
}
