/** How long a preview link works, in minutes: 1 to 7 days, a day unless asked. */
export const PREVIEW_MIN_MINUTES = 1;
export const PREVIEW_MAX_MINUTES = 10_080;
export const PREVIEW_DEFAULT_MINUTES = 1_440;

import { secretTokenPattern } from '@almanac/shared/domain';

/** The token in a preview address: 32 base62 characters (anything else names no link, without a query). */
export const PREVIEW_TOKEN_PATTERN = secretTokenPattern();
