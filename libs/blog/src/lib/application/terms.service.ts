import { Injectable } from '@nestjs/common';
import {
  assertChanges,
  Clock,
  firstFreeSlug,
  newId,
  NotFoundError,
  Precondition,
  slugify,
  SlugTakenError,
  Transactions,
  writeUnderPrecondition,
} from '@almanac/shared';
import type { TermKindName, TermView } from '../domain/term';
import { SearchRankingCache } from '../infrastructure/search-ranking-cache';
import { TermRepository } from '../infrastructure/term.repository';

/** How many times a generated slug is recomputed when a concurrent create takes it first. */
const SLUG_ATTEMPTS = 10;

/** Categories and tags: `{name, slug?}`, slug generated as for event types, post_count of published posts. */
export abstract class TermsService {
  private readonly terms: TermRepository;

  protected constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly resource: string,
    kind: TermKindName,
    private readonly rankings: SearchRankingCache,
  ) {
    this.terms = new TermRepository(transactions, kind);
  }

  list(organizationId: string): Promise<TermView[]> {
    return this.terms.list(organizationId, this.clock.now());
  }

  async get(organizationId: string, id: string): Promise<TermView> {
    const term = await this.terms.find(organizationId, id, this.clock.now());
    if (!term) throw new NotFoundError(this.resource);
    return term;
  }

  async create(organizationId: string, input: { name: string; slug?: string }): Promise<TermView> {
    return this.rankings.invalidatingAfter(organizationId, this.transactions.run(async () => {
      const now = this.clock.now();
      const id = newId();
      const base = slugify(input.name);
      if (input.slug === undefined) await this.terms.lockSlugBase(organizationId, base);
      for (let attempt = 1; ; attempt++) {
        const slug = input.slug ?? firstFreeSlug(base, await this.terms.slugsLike(organizationId, base));
        if (await this.terms.insertIfSlugFree(organizationId, { id, name: input.name, slug }, now)) break;
        if (input.slug !== undefined || attempt >= SLUG_ATTEMPTS) throw new SlugTakenError(slug);
      }
      return (await this.terms.find(organizationId, id, now))!;
    }));
  }

  async update(
    organizationId: string,
    id: string,
    input: { name?: string; slug?: string },
    precondition = Precondition.none<TermView>(),
  ): Promise<TermView> {
    assertChanges(input);
    return this.rankings.invalidatingAfter(organizationId, this.transactions.run(async () => {
      const now = this.clock.now();
      await precondition.checkLocked(() => this.terms.lockById(organizationId, id, now));
      if (!(await this.terms.update(organizationId, id, input, now))) throw new NotFoundError(this.resource);
      return (await this.terms.find(organizationId, id, now))!;
    }));
  }

  /** Returns the deleted id. */
  async delete(organizationId: string, id: string, precondition = Precondition.none<TermView>()): Promise<string> {
    const deleted = await this.rankings.invalidatingAfter(
      organizationId,
      writeUnderPrecondition(
        this.transactions,
        precondition,
        () => this.terms.lockById(organizationId, id, this.clock.now()),
        () => this.terms.delete(organizationId, id),
      ),
    );
    if (deleted === null) throw new NotFoundError(this.resource);
    return deleted;
  }
}

@Injectable()
export class CategoriesService extends TermsService {
  constructor(transactions: Transactions, clock: Clock, rankings: SearchRankingCache) {
    super(transactions, clock, 'Category', 'category', rankings);
  }
}

@Injectable()
export class TagsService extends TermsService {
  constructor(transactions: Transactions, clock: Clock, rankings: SearchRankingCache) {
    super(transactions, clock, 'Tag', 'tag', rankings);
  }
}
