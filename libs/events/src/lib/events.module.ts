import { Module } from '@nestjs/common';
import { declareEventTypes, declareScopes } from '@almanac/identity';
import { registerErrorCodes } from '@almanac/shared';
import { EventsController } from './api/events.controller';
import { RegistrationsController } from './api/registrations.controller';
import { EventsService } from './application/events.service';
import { RegistrationErasureService } from './application/registration-erasure.service';
import { RegistrationsService } from './application/registrations.service';
import { EventsRepository } from './infrastructure/events.repository';
import { RegistrationErasureRepository } from './infrastructure/registration-erasure.repository';
import { RegistrationsRepository } from './infrastructure/registrations.repository';
import { ScheduleHoldsRepository } from './infrastructure/schedule-holds.repository';
import { EVENTS_ERROR_CODES } from './domain/event-errors';

/** The scopes this context's routes require (identity keeps the vocabulary of API keys). */
declareScopes('events', ['events:read', 'events:write']);

/** The changes this context announces through the outbox, and the scope that reads each. */
declareEventTypes('events', {
  'event.created': 'events:read',
  'event.updated': 'events:read',
  'event.deleted': 'events:read',
  'registration.created': 'events:read',
  'registration.cancelled': 'events:read',
  'registration.promoted': 'events:read',
});

/** This context's own error codes (the kernel's are in @almanac/shared). */
registerErrorCodes('events', EVENTS_ERROR_CODES);

@Module({
  controllers: [EventsController, RegistrationsController],
  providers: [EventsService, RegistrationsService, EventsRepository, RegistrationsRepository, RegistrationErasureRepository, RegistrationErasureService, ScheduleHoldsRepository],
  exports: [RegistrationErasureService],
})
export class EventsModule {}
