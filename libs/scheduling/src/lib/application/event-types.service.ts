import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  assertChanges,
  Clock,
  firstFreeSlug,
  newId,
  NotFoundError,
  Page,
  Precondition,
  slugify,
  SlugTakenError,
  writeUnderPrecondition,
} from '@almanac/shared';
import { DataSource } from 'typeorm';
import { EventType, EventTypeChanges, EventTypeInput, newEventType } from '../domain/event-type';
import { EventTypeRepository } from '../infrastructure/event-type.repository';

export type CreateEventTypeCommand = EventTypeInput;

export type UpdateEventTypeCommand = Partial<CreateEventTypeCommand>;

/** Attempts at a generated slug before giving up (each loses only to a concurrent create of the same title). */
const SLUG_ATTEMPTS = 5;

@Injectable()
export class EventTypesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly eventTypes: EventTypeRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * A supplied slug that is taken: 409 `slug_taken`. Without one, the slug comes from the title and
   * gets the first free `-2`, `-3`… suffix; the unique index decides races, and the loser retries.
   */
  async create(organizationId: string, command: CreateEventTypeCommand): Promise<EventType> {
    const now = this.clock.now();
    const id = newId();
    const draft = (slug: string): EventType => newEventType({ id, organizationId, slug }, command, now);
    if (command.slug !== undefined)
      return this.eventTypes.insert(this.dataSource.manager, draft(command.slug));

    const base = slugify(command.title);
    let lastError: unknown;
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      try {
        return await this.dataSource.transaction(async (em) => {
          // Creates that generate from the same base take turns, so they do not keep colliding.
          await this.eventTypes.lockSlugBase(em, organizationId, base);
          const slug = firstFreeSlug(base, await this.eventTypes.slugsLike(em, organizationId, base));
          return this.eventTypes.insert(em, draft(slug));
        });
      } catch (error) {
        // Only a concurrent create with a supplied slug can still take ours: pick again.
        if (!(error instanceof SlugTakenError)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }

  async list(
    organizationId: string,
    active: boolean,
    page: Page,
  ): Promise<{ items: EventType[]; total: number }> {
    return this.eventTypes.list(this.dataSource.manager, organizationId, active, page);
  }

  async get(organizationId: string, id: string): Promise<EventType> {
    const eventType = await this.eventTypes.findById(this.dataSource.manager, organizationId, id);
    if (!eventType) throw new NotFoundError('Event type');
    return eventType;
  }

  async update(
    organizationId: string,
    id: string,
    command: UpdateEventTypeCommand,
    precondition = Precondition.none<EventType>(),
  ): Promise<EventType> {
    assertChanges(command);
    const changes: EventTypeChanges = { updatedAt: this.clock.now() };
    for (const [key, value] of Object.entries(command) as [keyof UpdateEventTypeCommand, unknown][]) {
      if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
    }
    const updated = await writeUnderPrecondition(
      this.dataSource,
      precondition,
      { table: 'event_types', organizationId, id },
      (em) => this.eventTypes.findById(em, organizationId, id),
      (em) => this.eventTypes.update(em, organizationId, id, changes),
    );
    if (!updated) throw new NotFoundError('Event type');
    return updated;
  }

  async delete(organizationId: string, id: string, precondition = Precondition.none<EventType>()): Promise<{ id: string }> {
    const deleted = await writeUnderPrecondition(
      this.dataSource,
      precondition,
      { table: 'event_types', organizationId, id },
      (em) => this.eventTypes.findById(em, organizationId, id),
      (em) => this.eventTypes.delete(em, organizationId, id),
    );
    if (!deleted) throw new NotFoundError('Event type');
    return { id };
  }
}
