import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ProblemDetailsFilter } from './api/problem-details.filter';
import { AppConfig } from './config/app-config';
import { Clock, SystemClock } from './domain/clock';
import { HealthController } from './health/health.controller';
import { MetricsController } from './metrics/metrics.controller';
import { Metrics } from './metrics/metrics';

/** Configuration, clock, metrics and the problem-details filter, available to every context. */
@Global()
@Module({})
export class SharedModule {
  static forRoot(options: { config: AppConfig; clock?: Clock; metrics?: Metrics }): DynamicModule {
    return {
      module: SharedModule,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: AppConfig, useValue: options.config },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        { provide: Metrics, useValue: options.metrics ?? new Metrics(false) },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
      ],
      exports: [AppConfig, Clock, Metrics],
    };
  }
}
