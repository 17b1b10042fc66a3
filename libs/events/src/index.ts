import type { MigrationClass } from '@almanac/shared';
import * as migrations from './lib/infrastructure/migrations';

export { EventsModule } from './lib/events.module';
/** For the operators' erasure of a person's data. */
export { RegistrationErasureService } from './lib/application/registration-erasure.service';

/** This context's migrations; the app runs them with every other context's. */
export const eventsMigrations: MigrationClass[] = Object.values(migrations);
