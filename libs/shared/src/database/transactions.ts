import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf, SqlClient } from './sql-client';

interface Ambient {
  dataSource: DataSource;
  manager: EntityManager;
}

const ambient = new AsyncLocalStorage<Ambient>();

/**
 * The unit of work: `run(work)` opens a transaction and makes it the ambient one for everything
 * `work` awaits, or joins the ambient transaction when there already is one. Application services
 * run each use case of several statements in `run`; repositories run their statements with `rows`,
 * in the ambient transaction when there is one, else each on its own. No `EntityManager` is handed
 * from a service to a repository, or from one context to another: the calendar import
 * (calendar-sync) runs `run(() => …)`, and scheduling's `reconcileImported`, which runs
 * `run(() => …)` itself, joins it.
 */
@Injectable()
export class Transactions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlClient,
  ) {}

  /** Runs `work` in the ambient transaction, or in a new one that commits when `work` resolves. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current()) return work();
    return this.dataSource.transaction((manager) => ambient.run({ dataSource: this.dataSource, manager }, work));
  }

  /** The ambient transaction's manager, or the data source's own (each statement on its own). */
  manager(): EntityManager {
    return this.current() ?? this.dataSource.manager;
  }

  /**
   * The rows of one statement: in the ambient transaction, or, outside any, straight on the pool (the
   * thin path of `SqlClient`: no query runner per statement, which the hot reads and writes need).
   */
  async rows<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    const manager = this.current();
    if (manager) return rowsOf<R>(manager, sql, params);
    return (await this.sql.query<R>(sql, params)).rows;
  }

  /**
   * The rows of a statement that means something only inside the ambient transaction, until it ends
   * (a row lock `FOR UPDATE`, an advisory transaction lock, a savepoint): outside one it is a mistake,
   * and throws.
   */
  async rowsInTransaction<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    if (!this.current()) throw new Error('a lock is taken inside Transactions.run (it would end with its statement)');
    return this.rows<R>(sql, params);
  }

  /** Whether the database is open (not yet, or no longer, during start and shutdown). */
  open(): boolean {
    return this.dataSource.isInitialized;
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
