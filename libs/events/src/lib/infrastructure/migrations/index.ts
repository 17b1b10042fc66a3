/** This context's migrations, one line each (TypeORM runs every context's in the order of their timestamps). */
export { EventsInit1763700002000 } from './1763700002000-events-init';
export { EventsWaitlist1764060000000 } from './1764060000000-events-waitlist';
export { EventsDistributionKeys1764070000200 } from './1764070000200-distribution-keys';
export { EventsSchedule1764400000200 } from './1764400000200-events-schedule';
