import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_KINDS } from '../../domain/api-key-kind';
import { SCOPES } from '../../domain/scopes';
import type { ApiKey } from '../../domain/api-key';

export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;

  @ApiProperty({ example: 'Website' })
  readonly name!: string;

  @ApiProperty({ example: 'alm_3hG7kQ2p', description: 'The first 12 characters of the key, for display' })
  readonly prefix!: string;

  @ApiProperty({ enum: API_KEY_KINDS, description: '`secret`, or `publishable` (reads published posts and events only)' })
  readonly kind!: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['bookings:read', 'bookings:write'] })
  readonly scopes!: string[];

  @ApiProperty({ format: 'uuid' })
  readonly organization_id!: string;

  @ApiProperty({ format: 'date-time' })
  readonly created_at!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Recorded at most once a minute' })
  readonly last_used_at!: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  readonly expires_at!: string | null;
}

export function toApiKeyResponse(key: ApiKey): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    kind: key.kind,
    scopes: [...key.scopes],
    organization_id: key.organizationId,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
    expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
  };
}
