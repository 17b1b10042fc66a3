import type { LocationType } from './location-type';

export interface EventType {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly slug: string;
  readonly description: string | null;
  readonly duration: number;
  readonly locationType: LocationType;
  readonly locationDetails: string | null;
  readonly color: string | null;
  readonly requiresApproval: boolean;
  readonly isActive: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const EVENT_TYPE_MIN_DURATION = 1;
export const EVENT_TYPE_MAX_DURATION = 1440;
/** `#RGB` or `#RRGGBB`. */
export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
