import { Body, Delete, Get, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminController, AdminSession, AdminSessionInfo, assertOwnOrganization, Audited, OrganizationIdParam } from '@almanac/identity';
import { ApiDataResponse, ApiProblems, AuditSource, NotFoundError } from '@almanac/shared';
import { CalendarIntegrationService } from '../application/calendar-integration.service';
import { toIntegrationResponse } from './calendar-integration.mapper';
import { CalendarIntegrationResponse, DeletedIntegrationResponse, PutCalendarIntegrationDto } from './dto/calendar-integration.dto';

@AdminController('organizations/:organizationId/calendar-integration', 'calendar-sync')
export class CalendarIntegrationController {
  constructor(private readonly integrations: CalendarIntegrationService) {}

  @Put()
  @ApiOperation({ summary: "Create or replace the organization's external calendar integration" })
  @ApiDataResponse(CalendarIntegrationResponse, 200, 'The integration, URL masked')
  @ApiProblems(400, 403, 404, 415, 422)
  async put(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Body() body: PutCalendarIntegrationDto,
    @Audited() source: AuditSource,
  ): Promise<{ data: CalendarIntegrationResponse }> {
    assertOwnOrganization(admin, organizationId);
    const integration = await this.integrations.put(organizationId, {
      provider: body.provider,
      url: body.url,
      scheduleId: body.schedule_id,
      name: body.name,
    }, source);
    return { data: toIntegrationResponse(integration) };
  }

  @Get()
  @ApiOperation({ summary: "The organization's calendar integration (URL masked)" })
  @ApiDataResponse(CalendarIntegrationResponse)
  @ApiProblems(403, 404)
  async get(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
  ): Promise<{ data: CalendarIntegrationResponse }> {
    assertOwnOrganization(admin, organizationId);
    const integration = await this.integrations.get(organizationId);
    if (!integration) throw new NotFoundError('Calendar integration');
    return { data: toIntegrationResponse(integration) };
  }

  @Delete()
  @ApiOperation({ summary: "Remove the organization's calendar integration (imported bookings stay)" })
  @ApiDataResponse(DeletedIntegrationResponse)
  @ApiProblems(403, 404)
  async remove(
    @AdminSession() admin: AdminSessionInfo,
    @OrganizationIdParam() organizationId: string,
    @Audited() source: AuditSource,
  ): Promise<{ data: DeletedIntegrationResponse }> {
    assertOwnOrganization(admin, organizationId);
    return { data: { id: await this.integrations.remove(organizationId, source), deleted: true } };
  }
}
