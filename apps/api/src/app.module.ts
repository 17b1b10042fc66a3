import { DynamicModule, Module, Type } from '@nestjs/common';
import { BlogModule } from '@almanac/blog';
import { CalendarSyncModule } from '@almanac/calendar-sync';
import { EventsModule } from '@almanac/events';
import { IdentityModule } from '@almanac/identity';
import { SchedulingModule } from '@almanac/scheduling';
import { WebhooksModule } from '@almanac/webhooks';
import { OperationsModule } from '@almanac/operations';
import { AppConfig, Clock, DatabaseModule, Metrics, SharedModule } from '@almanac/shared';
import { AdminConsoleModule } from './admin-console.controller';
import { ALL_MIGRATIONS } from './migrations';

export interface AppModuleOptions {
  config: AppConfig;
  clock?: Clock;
  /** The app's metrics registry (createApp makes it before the HTTP server, which times requests into it). */
  metrics?: Metrics;
  /** More modules to compose in (tests mount probe controllers through the real pipeline this way). */
  extraModules?: Array<Type<unknown> | DynamicModule>;
}

@Module({})
export class AppModule {
  static register(options: AppModuleOptions): DynamicModule {
    const { config } = options;
    return {
      module: AppModule,
      imports: [
        SharedModule.forRoot({ config, clock: options.clock, metrics: options.metrics }),
        DatabaseModule.forRoot({ migrations: ALL_MIGRATIONS }),
        IdentityModule,
        SchedulingModule,
        EventsModule,
        BlogModule,
        CalendarSyncModule,
        WebhooksModule,
        OperationsModule,
        AdminConsoleModule,
        ...(options.extraModules ?? []),
      ],
    };
  }
}
