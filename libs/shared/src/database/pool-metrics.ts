import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Metrics } from '../metrics/metrics';

/** `almanac_db_pool_connections{state}`: this instance's PostgreSQL pool, read from the pool itself at each scrape (no query). */
@Injectable()
export class PoolMetrics implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const dataSource = this.dataSource;
    this.metrics.gauge({
      name: 'almanac_db_pool_connections',
      help: "Connections of this instance's PostgreSQL pool: idle, active (checked out) and waiting (requests queued for one)",
      labelNames: ['state'],
      collect() {
        const pool = (dataSource.driver as PostgresDriver).master as Pool | undefined;
        if (!pool) return;
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'active' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
}
