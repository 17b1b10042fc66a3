import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminController, AdminSession, AdminSessionInfo, Audited } from '@almanac/identity';
import { ApiProblems, AuditSource, parseDateOrDateTime } from '@almanac/shared';
import { ImportExternalBookingsService } from '../application/import-external-bookings.service';
import { ImportResult, toImportResult } from '../domain/sync-run';
import { SyncExternalBookingsDto, SyncExternalBookingsResponse } from './dto/sync-external.dto';

@AdminController('bookings', 'calendar-sync')
export class SyncExternalController {
  constructor(private readonly importer: ImportExternalBookingsService) {}

  @Post('sync-external')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import bookings from the organization’s external calendar',
    description:
      'Expands the feed (RRULE, RDATE, EXDATE, RECURRENCE-ID, VTIMEZONE) over the range and makes each occurrence a CONFIRMED ' +
      'booking on the integration’s schedule, in one transaction. Moved occurrences are updated; vanished or cancelled ones ' +
      'have their bookings cancelled. A repeated sync of an unchanged feed imports nothing new.',
  })
  @ApiOkResponse({ type: SyncExternalBookingsResponse })
  @ApiProblems(400, 403, 409, 415, 422, 502)
  async sync(@AdminSession() admin: AdminSessionInfo, @Body() body: SyncExternalBookingsDto, @Audited() source: AuditSource): Promise<ImportResult> {
    const outcome = await this.importer.run(admin, {
      organizationId: body.organizationId,
      startDate: body.startDate ? parseDateOrDateTime(body.startDate)!.instant : null,
      endDate: body.endDate ? parseDateOrDateTime(body.endDate)!.instant : null,
    }, source);
    return toImportResult(outcome);
  }
}
