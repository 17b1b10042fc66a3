import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

interface Ambient {
  dataSource: DataSource;
  manager: EntityManager;
}

const ambient = new AsyncLocalStorage<Ambient>();

/**
 * The unit of work two contexts share without handing each other an `EntityManager`: `run(work)`
 * opens a transaction and makes it the ambient one for everything `work` awaits, or joins the ambient
 * transaction when there already is one. A context's repositories take `manager()`, which is the
 * ambient transaction's manager, or the data source's own outside any transaction.
 *
 * So the calendar import (calendar-sync) runs `run(() => …)`, and scheduling's `reconcileImported`,
 * which runs `run(() => …)` itself, joins it: one transaction, no `EntityManager` in either API.
 */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in the ambient transaction, or in a new one that commits when `work` resolves. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current()) return work();
    return this.dataSource.transaction((manager) => ambient.run({ dataSource: this.dataSource, manager }, work));
  }

  /** The ambient transaction's manager, or the data source's own (each statement on its own). */
  manager(): EntityManager {
    return this.current() ?? this.dataSource.manager;
  }

  /** true inside `run` */
  active(): boolean {
    return this.current() !== null;
  }

  private current(): EntityManager | null {
    const store = ambient.getStore();
    // Several applications may share one process (tests start three); each has its own data source.
    if (!store || store.dataSource !== this.dataSource) return null;
    return store.manager.queryRunner?.isReleased === false ? store.manager : null;
  }
}
