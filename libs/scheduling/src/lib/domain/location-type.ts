export const LOCATION_TYPES = ['in_person', 'phone', 'video', 'custom'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];
export const DEFAULT_EVENT_TYPE_LOCATION: LocationType = 'video';
