import { Module } from '@nestjs/common';
import { EventsController } from './api/events.controller';
import { RegistrationsController } from './api/registrations.controller';
import { EventsService } from './application/events.service';
import { RegistrationsService } from './application/registrations.service';
import { EventsRepository } from './infrastructure/events.repository';
import { RegistrationsRepository } from './infrastructure/registrations.repository';

@Module({
  controllers: [EventsController, RegistrationsController],
  providers: [EventsService, RegistrationsService, EventsRepository, RegistrationsRepository],
})
export class EventsModule {}
