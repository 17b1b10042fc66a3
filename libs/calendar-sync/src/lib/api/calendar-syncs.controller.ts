import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminController, AdminSession, AdminSessionInfo, assertOwnOrganization, OrganizationIdParam } from '@almanac/identity';
import { ApiListResponse, ApiProblems, ListResponse, PageQuery, pageOf, resolvePage } from '@almanac/shared';
import { CalendarIntegrationService } from '../application/calendar-integration.service';
import { CalendarSyncRunResponse, toSyncRun } from './dto/calendar-sync-run.dto';

@AdminController('organizations/:organizationId/calendar-syncs', 'calendar-sync')
export class CalendarSyncsController {
  constructor(private readonly integrations: CalendarIntegrationService) {}

  @Get()
  @ApiOperation({
    summary: 'The history of the import',
    description: 'One record per run (succeeded or failed), newest first. Refused runs (sync_in_progress, invalid ranges) are not runs.',
  })
  @ApiListResponse(CalendarSyncRunResponse)
  @ApiProblems(400)
  async list(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Query() query: PageQuery,
  ): Promise<ListResponse<CalendarSyncRunResponse>> {
    assertOwnOrganization(admin, organizationId);
    const page = resolvePage(query);
    const { items, total } = await this.integrations.history(organizationId, page);
    return pageOf(items.map(toSyncRun), total, page);
  }
}
