import type { DateOverride, WeeklyRule } from './availability';

export interface Schedule {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly timezone: string;
  /** Weekly rules; null: open around the clock (except on overridden dates). */
  readonly availability: readonly WeeklyRule[] | null;
  readonly dateOverrides: readonly DateOverride[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const DEFAULT_SCHEDULE_TIMEZONE = 'UTC';
