import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminController, AdminSession, AdminSessionInfo, assertOwnOrganization, OrganizationIdParam } from '@almanac/identity';
import { ApiListResponse, ApiProblems, ListResponse, PageQuery, pageOf, resolvePage } from '@almanac/shared';
import { SchedulesService } from '../application/schedules.service';
import { ScheduleResponse } from './dto/schedule.dto';
import { toScheduleResponse } from './scheduling.mappers';

/** The organization's schedules for the admin console (session cookie), e.g. to pick the import's target. */
@AdminController('organizations/:organizationId/schedules', 'admin-schedules')
export class AdminSchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Get()
  @ApiOperation({ summary: "List the organization's schedules", description: 'Ordered by created_at, then id, as /api/v1/schedules.' })
  @ApiListResponse(ScheduleResponse)
  @ApiProblems(400)
  async list(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Query() query: PageQuery,
  ): Promise<ListResponse<ScheduleResponse>> {
    assertOwnOrganization(admin, organizationId);
    const page = resolvePage(query, 50);
    const { items, total } = await this.schedules.list(organizationId, page);
    return pageOf(items.map(toScheduleResponse), total, page);
  }
}
