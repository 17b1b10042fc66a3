import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  assertChanges,
  checkPrecondition,
  Clock,
  firstFreeSlug,
  newId,
  NotFoundError,
  Precondition,
  slugify,
  SlugTakenError,
  writeUnderPrecondition,
} from '@almanac/shared';
import { DataSource } from 'typeorm';
import type { TermKindName, TermView } from '../domain/term';
import { SearchRankingCache } from '../infrastructure/search-ranking-cache';
import { TermRepository } from '../infrastructure/term.repository';

/** How many times a generated slug is recomputed when a concurrent create takes it first. */
const SLUG_ATTEMPTS = 10;

/** Categories and tags: `{name, slug?}`, slug generated as for event types, post_count of published posts. */
export abstract class TermsService {
  private readonly terms: TermRepository;

  protected constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly resource: string,
    kind: TermKindName,
    private readonly rankings: SearchRankingCache,
  ) {
    this.terms = new TermRepository(kind);
  }

  list(organizationId: string): Promise<TermView[]> {
    return this.terms.list(this.dataSource.manager, organizationId, this.clock.now());
  }

  async get(organizationId: string, id: string): Promise<TermView> {
    const term = await this.terms.find(this.dataSource.manager, organizationId, id, this.clock.now());
    if (!term) throw new NotFoundError(this.resource);
    return term;
  }

  async create(organizationId: string, input: { name: string; slug?: string }): Promise<TermView> {
    return this.rankings.invalidatingAfter(organizationId, this.dataSource.transaction(async (em) => {
      const now = this.clock.now();
      const id = newId();
      const base = slugify(input.name);
      if (input.slug === undefined) await this.terms.lockSlugBase(em, organizationId, base);
      for (let attempt = 1; ; attempt++) {
        const slug = input.slug ?? firstFreeSlug(base, await this.terms.slugsLike(em, organizationId, base));
        if (await this.terms.insertIfSlugFree(em, organizationId, { id, name: input.name, slug }, now)) break;
        if (input.slug !== undefined || attempt >= SLUG_ATTEMPTS) throw new SlugTakenError(slug);
      }
      return (await this.terms.find(em, organizationId, id, now))!;
    }));
  }

  async update(
    organizationId: string,
    id: string,
    input: { name?: string; slug?: string },
    precondition = Precondition.none<TermView>(),
  ): Promise<TermView> {
    assertChanges(input);
    return this.rankings.invalidatingAfter(organizationId, this.dataSource.transaction(async (em) => {
      const now = this.clock.now();
      await checkPrecondition(em, precondition, { table: this.terms.table, organizationId, id }, (tx) =>
        this.terms.find(tx, organizationId, id, now),
      );
      if (!(await this.terms.update(em, organizationId, id, input, now))) throw new NotFoundError(this.resource);
      return (await this.terms.find(em, organizationId, id, now))!;
    }));
  }

  /** Returns the deleted id. */
  async delete(organizationId: string, id: string, precondition = Precondition.none<TermView>()): Promise<string> {
    const deleted = await this.rankings.invalidatingAfter(
      organizationId,
      writeUnderPrecondition(
        this.dataSource,
        precondition,
        { table: this.terms.table, organizationId, id },
        (em) => this.terms.find(em, organizationId, id, this.clock.now()),
        (em) => this.terms.delete(em, organizationId, id),
      ),
    );
    if (deleted === null) throw new NotFoundError(this.resource);
    return deleted;
  }
}

@Injectable()
export class CategoriesService extends TermsService {
  constructor(@InjectDataSource() dataSource: DataSource, clock: Clock, rankings: SearchRankingCache) {
    super(dataSource, clock, 'Category', 'category', rankings);
  }
}

@Injectable()
export class TagsService extends TermsService {
  constructor(@InjectDataSource() dataSource: DataSource, clock: Clock, rankings: SearchRankingCache) {
    super(dataSource, clock, 'Tag', 'tag', rankings);
  }
}
