import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminController, OrganizationIdParam } from '@almanac/identity';
import { ApiListResponse, ApiProblems, AuditLog, ListResponse, pageOf, resolvePage } from '@almanac/shared';
import { AuditEntryResponse, AuditLogQuery, toAuditEntry } from './dto/audit-log.dto';

/** The organization's audit log, for its admins. Read-only: no route changes or deletes an entry. */
@AdminController('organizations/:organizationId/audit-log', 'operations')
export class AuditLogController {
  constructor(private readonly audit: AuditLog) {}

  @Get()
  @ApiOperation({
    summary: "The organization's audit log",
    description:
      'Newest first. Who signed in (and which sign-ins failed, for e-mails of users of the organization), signed out, created or ' +
      'revoked API keys, set or removed the calendar integration, ran the import, created, changed, deleted or rotated ' +
      'webhook endpoints (through the admin console or `/api/v1`), and erased a person. Never a secret, key, password or ' +
      'erased address. The log is append-only.',
  })
  @ApiListResponse(AuditEntryResponse)
  @ApiProblems(400)
  async list(@OrganizationIdParam() organizationId: string, @Query() query: AuditLogQuery): Promise<ListResponse<AuditEntryResponse>> {
    const page = resolvePage(query);
    const { items, total } = await this.audit.page(organizationId, query.action, page);
    return pageOf(items.map(toAuditEntry), total, page);
  }
}
