import { Body, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPrincipal, Principal, RequireScope, V1Controller } from '@almanac/identity';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  Conditional,
  IfMatch,
  IfMatchHeader,
  ListResponse,
  pageOf,
  resolvePage,
  UuidParam,
} from '@almanac/shared';
import type { Response } from 'express';
import { RegistrationsService } from '../application/registrations.service';
import { CreateRegistrationDto, ListRegistrationsQuery, RegistrationResponse } from './dto/registration.dto';
import { registrationBody, toRegistrationResponse } from './event.mapper';

@V1Controller('events/:eventId/registrations', 'events')
export class RegistrationsController {
  constructor(private readonly registrations: RegistrationsService) {}

  @Post()
  @RequireScope('events:write')
  @ApiOperation({
    summary: 'Register for an event',
    description:
      'Only published events accept registrations (409 event_not_open); never more active registrations than ' +
      'slots, also under concurrency (409 event_full); one active registration per e-mail, case-insensitive ' +
      '(409 already_registered).',
  })
  @ApiDataResponse(RegistrationResponse, 201, 'The registration; Location names it')
  @ApiProblems(400, 403, 404, 409, 413, 415)
  async create(
    @Principal() principal: ApiPrincipal,
    @Param('eventId', UuidParam('Event')) eventId: string,
    @Body() body: CreateRegistrationDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: RegistrationResponse }> {
    const registration = await this.registrations.register(principal.organizationId, eventId, {
      name: body.name,
      email: body.email,
    });
    res.location(`/api/v1/events/${eventId}/registrations/${registration.id}`);
    return { data: toRegistrationResponse(registration) };
  }

  @Get()
  @RequireScope('events:read')
  @ApiOperation({ summary: "An event's registrations, by created_at then id" })
  @ApiListResponse(RegistrationResponse)
  @ApiProblems(400, 403, 404)
  async list(
    @Principal() principal: ApiPrincipal,
    @Param('eventId', UuidParam('Event')) eventId: string,
    @Query() query: ListRegistrationsQuery,
  ): Promise<ListResponse<RegistrationResponse>> {
    const page = resolvePage(query, 50);
    const { registrations, total } = await this.registrations.list(principal.organizationId, eventId, query.status, page);
    return pageOf(registrations.map(toRegistrationResponse), total, page);
  }

  @Get(':registrationId')
  @Conditional()
  @RequireScope('events:read')
  @ApiOperation({ summary: 'One registration' })
  @ApiDataResponse(RegistrationResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('eventId', UuidParam('Event')) eventId: string,
    @Param('registrationId', UuidParam('Registration')) registrationId: string,
  ): Promise<{ data: RegistrationResponse }> {
    return registrationBody(await this.registrations.get(principal.organizationId, eventId, registrationId));
  }

  @Delete(':registrationId')
  @HttpCode(200)
  @Conditional()
  @RequireScope('events:write')
  @ApiOperation({ summary: 'Cancel a registration and free its place (idempotent)' })
  @ApiDataResponse(RegistrationResponse)
  @ApiProblems(403, 404)
  async cancel(
    @Principal() principal: ApiPrincipal,
    @Param('eventId', UuidParam('Event')) eventId: string,
    @Param('registrationId', UuidParam('Registration')) registrationId: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: RegistrationResponse }> {
    const cancelled = await this.registrations.cancel(principal.organizationId, eventId, registrationId, ifMatch.of(registrationBody));
    return { data: toRegistrationResponse(cancelled) };
  }
}
