import { Injectable } from '@nestjs/common';
import {
  assertChanges,
  Clock,
  firstFreeSlug,
  ListTotal,
  newId,
  NotFoundError,
  Page,
  Precondition,
  Transactions,
  slugify,
  SlugTakenError,
  writeUnderPrecondition,
} from '@almanac/shared';
import { EventType, EventTypeChanges, EventTypeInput, newEventType } from '../domain/event-type';
import { EventTypeRepository } from '../infrastructure/event-type.repository';

export type CreateEventTypeCommand = EventTypeInput;

export type UpdateEventTypeCommand = Partial<CreateEventTypeCommand>;

/** Attempts at a generated slug before giving up (each loses only to a concurrent create of the same title). */
const SLUG_ATTEMPTS = 5;

@Injectable()
export class EventTypesService {
  constructor(
    private readonly transactions: Transactions,
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
      return this.eventTypes.insert(draft(command.slug));

    const base = slugify(command.title);
    let lastError: unknown;
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      try {
        return await this.transactions.run(async () => {
          // Creates that generate from the same base take turns, so they do not keep colliding.
          await this.eventTypes.lockSlugBase(organizationId, base);
          const slug = firstFreeSlug(base, await this.eventTypes.slugsLike(organizationId, base));
          return this.eventTypes.insert(draft(slug));
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
  ): Promise<{ items: EventType[]; total: ListTotal }> {
    return this.eventTypes.list(organizationId, active, page);
  }

  async get(organizationId: string, id: string): Promise<EventType> {
    const eventType = await this.eventTypes.findById(organizationId, id);
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
      this.transactions,
      precondition,
      () => this.eventTypes.lockById(organizationId, id),
      () => this.eventTypes.update(organizationId, id, changes),
    );
    if (!updated) throw new NotFoundError('Event type');
    return updated;
  }

  async delete(organizationId: string, id: string, precondition = Precondition.none<EventType>()): Promise<{ id: string }> {
    const deleted = await writeUnderPrecondition(
      this.transactions,
      precondition,
      () => this.eventTypes.lockById(organizationId, id),
      () => this.eventTypes.delete(organizationId, id),
    );
    if (!deleted) throw new NotFoundError('Event type');
    return { id };
  }
}
