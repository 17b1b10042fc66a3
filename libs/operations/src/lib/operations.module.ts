import { Module } from '@nestjs/common';
import { EventsModule } from '@almanac/events';
import { SchedulingModule } from '@almanac/scheduling';
import { WebhooksModule } from '@almanac/webhooks';
import { AuditLogController } from './api/audit-log.controller';
import { ErasuresController } from './api/erasures.controller';
import { ErasureService } from './application/erasure.service';

/** What an operator and an organization's admins need to run Almanac: the audit log and the erasure of a person's data. */
@Module({
  imports: [SchedulingModule, EventsModule, WebhooksModule],
  controllers: [AuditLogController, ErasuresController],
  providers: [ErasureService],
})
export class OperationsModule {}
