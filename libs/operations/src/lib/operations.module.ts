import { Module } from '@nestjs/common';
import { AuditLogController } from './api/audit-log.controller';

/** What an organization's admins need to see how Almanac is run: the audit log. */
@Module({
  controllers: [AuditLogController],
})
export class OperationsModule {}
