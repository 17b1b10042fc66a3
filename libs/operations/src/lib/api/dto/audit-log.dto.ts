import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_ACTIONS, AuditAction, AuditEntry, PageQuery } from '@almanac/shared';
import { IsIn, IsOptional } from 'class-validator';

export class AuditLogQuery extends PageQuery {
  @ApiPropertyOptional({ enum: AUDIT_ACTIONS, description: 'Only entries of this action' })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  readonly action?: AuditAction;
}

export class AuditActorResponse {
  @ApiProperty({ enum: ['user', 'api_key'] }) readonly type!: 'user' | 'api_key';
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'Ada Admin', description: "The user's or the key's name at the time" }) readonly name!: string;
}

export class AuditTargetResponse {
  @ApiProperty({ example: 'api_key', description: '`user`, `api_key`, `calendar_integration`, `calendar_sync`, `webhook` or `person`' })
  readonly type!: string;
  @ApiProperty({ description: "The record's id; for a person, the SHA-256 (hex) of their lowercased e-mail address" })
  readonly id!: string;
}

export class AuditEntryResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ format: 'date-time' }) readonly at!: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) readonly action!: AuditAction;
  @ApiProperty({ type: AuditActorResponse, nullable: true, description: 'Null for a refused sign-in and for the command line' })
  readonly actor!: AuditActorResponse | null;
  @ApiProperty({ type: AuditTargetResponse }) readonly target!: AuditTargetResponse;
  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7', description: "The client's address as the server's socket saw it" })
  readonly ip!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The X-Request-Id of the request' }) readonly request_id!: string | null;
}

export function toAuditEntry(entry: AuditEntry): AuditEntryResponse {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    actor: entry.actor && { type: entry.actor.type, id: entry.actor.id, name: entry.actor.name },
    target: { type: entry.target.type, id: entry.target.id },
    ip: entry.ip,
    request_id: entry.requestId,
  };
}
