export interface Schedule {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly timezone: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const DEFAULT_SCHEDULE_TIMEZONE = 'UTC';
