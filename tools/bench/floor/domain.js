'use strict';
// The plain functions of the API's domain layer, from the build (dist/): the floor validates, hashes,
// counts and builds SQL with exactly the code the API runs, so that it does the same work and no less.
// Only framework-free modules are loaded here (no Nest, no TypeORM, no class-validator).

require('../../register-paths');
const dist = (path) => require(`../../../dist/${path}`);

const shared = dist('libs/shared/src/domain/index.js');
const appConfig = dist('libs/shared/src/config/app-config.js');
const bodyChecks = dist('libs/shared/src/api/body-checks.js');
const errorStatus = dist('libs/shared/src/api/error-status.js');
const apiKeySecret = dist('libs/identity/src/lib/domain/api-key-secret.js');
const rateLimiter = dist('libs/identity/src/lib/domain/fixed-window-rate-limiter.js');
const httpSemantics = dist('libs/shared/src/api/http-semantics.js');
const bookingStatus = dist('libs/scheduling/src/lib/domain/booking-status.js');
const bookingMetadata = dist('libs/scheduling/src/lib/domain/booking-metadata.js');
const locationType = dist('libs/scheduling/src/lib/domain/location-type.js');
const bookingQueries = dist('libs/scheduling/src/lib/infrastructure/booking-queries.js');
const availability = dist('libs/scheduling/src/lib/domain/availability.js');
const slots = dist('libs/scheduling/src/lib/domain/slots.js');
const { Temporal } = require('temporal-polyfill');
const money = dist('libs/events/src/lib/domain/money.js');
const eventStatus = dist('libs/events/src/lib/domain/event-status.js');
const eventMapper = dist('libs/events/src/lib/api/event.mapper.js');
const postStatus = dist('libs/blog/src/lib/domain/post-status.js');
const post = dist('libs/blog/src/lib/domain/post.js');
const postQueries = dist('libs/blog/src/lib/infrastructure/post-queries.js');
const postSearch = dist('libs/blog/src/lib/infrastructure/post-search.js');
const searchRankingCache = dist('libs/blog/src/lib/infrastructure/search-ranking-cache.js');
const eventListQuery = dist('libs/events/src/lib/infrastructure/event-list-query.js');
const eventQueries = dist('libs/events/src/lib/infrastructure/event-queries.js');
const apiKeyQueries = dist('libs/identity/src/lib/infrastructure/api-key-queries.js');

module.exports = {
  newId: shared.newId,
  isUuid: shared.isUuid,
  isDateTimeWithZone: shared.isDateTimeWithZone,
  isIanaTimeZone: shared.isIanaTimeZone,
  parseDateOrDateTime: shared.parseDateOrDateTime,
  SLUG_PATTERN: shared.SLUG_PATTERN,
  SLUG_MAX_LENGTH: shared.SLUG_MAX_LENGTH,
  canTransition: shared.canTransition,
  AppConfig: appConfig.AppConfig,
  MAX_BODY_BYTES: bodyChecks.MAX_BODY_BYTES,
  REQUEST_ID_PATTERN: bodyChecks.REQUEST_ID_PATTERN,
  findNulBytes: bodyChecks.findNulBytes,
  findBodyProblems: bodyChecks.findBodyProblems,
  PROBLEM_TYPE_BASE: errorStatus.PROBLEM_TYPE_BASE,
  STATUS_TITLE: errorStatus.STATUS_TITLE,
  API_KEY_PATTERN: apiKeySecret.API_KEY_PATTERN,
  hashApiKey: apiKeySecret.hashApiKey,
  FixedWindowRateLimiter: rateLimiter.FixedWindowRateLimiter,
  RATE_LIMIT_POLICY: rateLimiter.RATE_LIMIT_POLICY,
  RATE_LIMIT_WINDOW_SECONDS: rateLimiter.RATE_LIMIT_WINDOW_SECONDS,
  rateLimitHeaders: httpSemantics.rateLimitHeaders,
  entityTagOf: httpSemantics.entityTagOf,
  noneMatchHits: httpSemantics.noneMatchHits,
  paginationLinks: httpSemantics.paginationLinks,
  BOOKING_TRANSITIONS: bookingStatus.BOOKING_TRANSITIONS,
  BOOKING_STATUSES: bookingStatus.BOOKING_STATUSES,
  isActiveBookingStatus: bookingStatus.isActiveBookingStatus,
  metadataProblems: bookingMetadata.metadataProblems,
  isSupportedInstant: shared.isSupportedInstant,
  LOCATION_TYPES: locationType.LOCATION_TYPES,
  bookingByIdQuery: bookingQueries.bookingByIdQuery,
  bookingInsertQuery: bookingQueries.bookingInsertQuery,
  bookingUpdateQuery: bookingQueries.bookingUpdateQuery,
  bookingListQueries: bookingQueries.bookingListQueries,
  bookingReferencesQuery: bookingQueries.bookingReferencesQuery,
  busyBookingsQuery: bookingQueries.busyBookingsQuery,
  availableSlots: slots.availableSlots,
  localDateOf: availability.localDateOf,
  isCalendarDate: shared.isCalendarDate,
  PlainDate: Temporal.PlainDate,
  Instant: Temporal.Instant,
  moneyFromDecimal: money.moneyFromDecimal,
  EVENT_STATUSES: eventStatus.EVENT_STATUSES,
  toRegistrationResponse: eventMapper.toRegistrationResponse,
  POST_STATUSES: postStatus.POST_STATUSES,
  POST_ORDER_FIELDS: post.POST_ORDER_FIELDS,
  SORT_DIRECTIONS: post.SORT_DIRECTIONS,
  postListQuery: postQueries.postListQuery,
  SEARCH_SETTINGS_SQL: postQueries.SEARCH_SETTINGS_SQL,
  idBySlugQuery: postQueries.idBySlugQuery,
  searchPage: postSearch.searchPage,
  SearchRankingCache: searchRankingCache.SearchRankingCache,
  eventListQuery: eventListQuery.eventListQuery,
  eventByIdQuery: eventQueries.eventByIdQuery,
  registrationInsertQuery: eventQueries.registrationInsertQuery,
  API_KEY_BY_HASH_SQL: apiKeyQueries.API_KEY_BY_HASH_SQL,
  TOUCH_API_KEY_SQL: apiKeyQueries.TOUCH_API_KEY_SQL,
};
