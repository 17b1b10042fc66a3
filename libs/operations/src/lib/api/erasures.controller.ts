import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminController, Audited, OrganizationIdParam } from '@almanac/identity';
import { ApiDataResponse, ApiProblems, AuditSource } from '@almanac/shared';
import { ErasureService } from '../application/erasure.service';
import { ErasureDto, ErasureResponse } from './dto/erasure.dto';

/** The erasure of a person's data (the right to erasure), for the organization's admins. */
@AdminController('organizations/:organizationId/erasures', 'operations')
export class ErasuresController {
  constructor(private readonly erasures: ErasureService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "Erase a person's data",
    description:
      'Every booking and registration of the organization with this e-mail (case-insensitive, cancelled ones too) keeps its times ' +
      'and status but loses the person: name `Erased`, e-mail `erased-{first 12 hex of the SHA-256 of the lowercased address}@invalid`, ' +
      "no phone, notes or attendee time zone. The organization's stored webhook events (which are also the change feed), the answers " +
      'receivers gave to their deliveries and the answers kept for Idempotency-Key replays are scrubbed the same way: the address ' +
      'wherever it stands, the names of the erased records only in payloads that hold one of those records. One transaction; other ' +
      'organizations are untouched; a second call answers zero counts. The audit log records the SHA-256 of the address, never the address.',
  })
  @ApiDataResponse(ErasureResponse, 200, 'How many records were anonymised, and when')
  @ApiProblems(400, 415)
  async erase(@OrganizationIdParam() organizationId: string, @Body() body: ErasureDto, @Audited() source: AuditSource): Promise<{ data: ErasureResponse }> {
    const result = await this.erasures.erase(organizationId, body.email, source);
    return { data: { bookings: result.bookings, registrations: result.registrations, at: result.at.toISOString() } };
  }
}
