import type { MigrationClass } from '@almanac/shared';
import { EventsInit1763700002000 } from './lib/infrastructure/migrations/1763700002000-events-init';
import { EventsWaitlist1764060000000 } from './lib/infrastructure/migrations/1764060000000-events-waitlist';
import { EventsDistributionKeys1764070000200 } from './lib/infrastructure/migrations/1764070000200-distribution-keys';

export { EventsModule } from './lib/events.module';
/** For the operators' erasure of a person's data. */
export { RegistrationErasureService } from './lib/application/registration-erasure.service';

/** This context's migrations, in order; the app runs them with every other context's. */
export const eventsMigrations: MigrationClass[] = [EventsInit1763700002000, EventsWaitlist1764060000000, EventsDistributionKeys1764070000200];
