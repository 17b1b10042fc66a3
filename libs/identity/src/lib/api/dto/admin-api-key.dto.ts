import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateTimeWithZone, OptionalNotNull } from '@almanac/shared';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { SCOPES } from '../../domain/scopes';
import type { ApiKey } from '../../domain/api-key';

export class CreateAdminApiKeyDto {
  @ApiProperty({ example: 'Website', maxLength: 300 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  readonly name!: string;

  @ApiPropertyOptional({ enum: SCOPES, isArray: true, description: 'Absent or empty: every scope' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SCOPES.length * 4)
  @IsIn(SCOPES, { each: true })
  readonly scopes?: string[];

  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String, description: 'When the key stops working (in the future)' })
  @IsOptional()
  @IsString()
  @IsDateTimeWithZone()
  readonly expires_at?: string | null;
}

/** An API key as the admin console lists it: never the key nor its hash. */
export class AdminApiKeyResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'Website' }) readonly name!: string;
  @ApiProperty({ example: 'alm_3hG7kQ2p', description: 'The first 12 characters of the key, for display' }) readonly prefix!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) readonly scopes!: string[];
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Recorded at most once a minute' })
  readonly last_used_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) readonly expires_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) readonly revoked_at!: string | null;
}

export class CreatedAdminApiKeyResponse extends AdminApiKeyResponse {
  @ApiProperty({ example: 'alm_3hG7kQ2pXw9…', description: 'The key itself: shown in this answer only' }) readonly key!: string;
}

export function toAdminApiKey(key: ApiKey): AdminApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: [...key.scopes],
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
