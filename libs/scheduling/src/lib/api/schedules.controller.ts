import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { Principal, RequireScope, V1Controller, type ApiPrincipal } from '@almanac/identity';
import {
  ApiDataResponse,
  ApiListResponse,
  ApiProblems,
  Conditional,
  IfMatch,
  IfMatchHeader,
  ListResponse,
  PageQuery,
  pageOf,
  resolvePage,
  UuidParam,
} from '@almanac/shared';
import type { Response } from 'express';
import { CreateScheduleCommand, SchedulesService } from '../application/schedules.service';
import { SCHEDULE_FIELDS } from '../domain/schedule';
import {
  CreateScheduleDto,
  ScheduleDeletedResponse,
  ScheduleResponse,
  UpdateScheduleDto,
} from './dto/schedule.dto';
import { scheduleBody, toScheduleResponse } from './scheduling.mappers';

@V1Controller('schedules', 'schedules')
export class SchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Get()
  @RequireScope('bookings:read')
  @ApiOperation({ summary: 'List schedules', description: 'Ordered by created_at, then id.' })
  @ApiListResponse(ScheduleResponse)
  @ApiProblems(400, 403)
  async list(
    @Principal() principal: ApiPrincipal,
    @Query() query: PageQuery,
  ): Promise<ListResponse<ScheduleResponse>> {
    const page = resolvePage(query, 50);
    const { items, total } = await this.schedules.list(principal.organizationId, page);
    return pageOf(items.map(toScheduleResponse), total, page);
  }

  @Get(':id')
  @Conditional()
  @RequireScope('bookings:read')
  @ApiOperation({ summary: 'Get a schedule' })
  @ApiDataResponse(ScheduleResponse)
  @ApiProblems(403, 404)
  async get(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Schedule')) id: string,
  ): Promise<{ data: ScheduleResponse }> {
    return scheduleBody(await this.schedules.get(principal.organizationId, id));
  }

  @Post()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Create a schedule',
    description: 'Bookings are made against schedules. timezone defaults to UTC; availability (weekly rules, null = around the clock) and date_overrides say when it is open.',
  })
  @ApiDataResponse(ScheduleResponse, 201, 'The new schedule; Location names it')
  @ApiProblems(400, 403, 413, 415)
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateScheduleDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: ScheduleResponse }> {
    // The DTO made sure of the name.
    const schedule = await this.schedules.create(principal.organizationId, SCHEDULE_FIELDS.fromWire(body) as CreateScheduleCommand);
    res.setHeader('Location', `/api/v1/schedules/${schedule.id}`);
    return { data: toScheduleResponse(schedule) };
  }

  @Patch(':id')
  @Conditional()
  @RequireScope('bookings:write')
  @ApiOperation({ summary: 'Update a schedule', description: 'Any of name, timezone, availability, date_overrides; an empty body is 400.' })
  @ApiDataResponse(ScheduleResponse)
  @ApiProblems(400, 403, 404, 413, 415)
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Schedule')) id: string,
    @Body() body: UpdateScheduleDto,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: ScheduleResponse }> {
    const schedule = await this.schedules.update(principal.organizationId, id, SCHEDULE_FIELDS.fromWire(body), ifMatch.of(scheduleBody));
    return scheduleBody(schedule);
  }

  @Delete(':id')
  @HttpCode(200)
  @Conditional()
  @RequireScope('bookings:write')
  @ApiOperation({
    summary: 'Delete a schedule',
    description:
      'Refused with 409 schedule_in_use while it has PENDING or CONFIRMED bookings; otherwise its bookings (all over or cancelled) are deleted with it.',
  })
  @ApiDataResponse(ScheduleDeletedResponse)
  @ApiProblems(403, 404, 409)
  async delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', UuidParam('Schedule')) id: string,
    @IfMatch() ifMatch: IfMatchHeader,
  ): Promise<{ data: ScheduleDeletedResponse }> {
    const { id: deletedId } = await this.schedules.delete(principal.organizationId, id, ifMatch.of(scheduleBody));
    return { data: { id: deletedId, deleted: true } };
  }
}
