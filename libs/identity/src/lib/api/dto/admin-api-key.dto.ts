import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiBodyRules, IsDateTimeWithZone, IsHttpUrl, OptionalNotNull } from '@almanac/shared';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { API_KEY_KINDS, MAX_ALLOWED_ORIGINS, MAX_ORIGIN_LENGTH, PUBLISHABLE_SCOPES } from '../../domain/api-key-kind';
import { SCOPES } from '../../domain/scopes';
import type { ApiKey } from '../../domain/api-key';

const KIND_DESCRIPTION =
  '`secret` (default): for servers, any scopes. `publishable` (`alm_pub_…`): for static sites and browser apps; ' +
  'its scopes are exactly `posts:read events:read` (scopes absent, empty or exactly those two, anything else is 400); ' +
  '`/api/v1` reads with it see only published posts (a scheduled post once due) and published events, every other ' +
  'record answers 404, and every other operation (bookings, registrations, webhooks, the change feed, any write) 403. ' +
  'A request from a browser whose `Origin` is one of `allowed_origins` gets `Access-Control-Allow-Origin` with that ' +
  'origin and `Vary: Origin` (errors too); a preflight (`OPTIONS /api/v1/…`, no key) from an origin that any usable ' +
  'publishable key lists gets 204 allowing GET with the authorization header. Secret keys never get CORS headers. ' +
  'The key also opens the Atom feed `GET /public/v1/posts.atom?key=…`.';

/** The two scopes a publishable key has, in any order (duplicates count once). */
const PUBLISHABLE_SCOPE_LIST = {
  anyOf: [
    { type: 'array', maxItems: 0 },
    {
      type: 'array',
      items: { enum: [...PUBLISHABLE_SCOPES] },
      maxItems: SCOPES.length * 4,
      allOf: PUBLISHABLE_SCOPES.map((scope) => ({ type: 'array', maxItems: SCOPES.length * 4, contains: { const: scope } })),
    },
  ],
};

// Origins and a site URL belong to a publishable key; a publishable key's scopes are its two.
@ApiBodyRules({
  if: { required: ['kind'], properties: { kind: { const: 'publishable' } } },
  then: { properties: { scopes: PUBLISHABLE_SCOPE_LIST } },
  else: { properties: { allowed_origins: { type: 'array', maxItems: 0 }, site_url: { type: 'null' } } },
})
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

  @ApiPropertyOptional({ enum: API_KEY_KINDS, description: KIND_DESCRIPTION })
  @OptionalNotNull()
  @IsIn(API_KEY_KINDS)
  readonly kind?: (typeof API_KEY_KINDS)[number];

  @ApiPropertyOptional({
    type: [String],
    example: ['https://www.example.com'],
    description: `Publishable keys only: browser origins (\`scheme://host[:port]\`, http or https, nothing after it; at most ${MAX_ALLOWED_ORIGINS}) whose requests get CORS headers`,
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWED_ORIGINS)
  @IsString({ each: true })
  @MaxLength(MAX_ORIGIN_LENGTH, { each: true })
  @Matches(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/?#@\s]+$/, { each: true, message: 'each value must be an origin: http(s)://host[:port]' })
  readonly allowed_origins?: string[];

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    nullable: true,
    example: 'https://www.example.com/blog',
    description: "Publishable keys only: where the organization's posts live; the Atom feed links each entry to `{site_url}/{slug}`",
  })
  @IsOptional()
  @IsHttpUrl()
  readonly site_url?: string | null;
}

/** An API key as the admin console lists it: never the key nor its hash. */
export class AdminApiKeyResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 'Website' }) readonly name!: string;
  @ApiProperty({ example: 'alm_3hG7kQ2p', description: 'The first 12 characters of the key, for display' }) readonly prefix!: string;
  @ApiProperty({ enum: API_KEY_KINDS, description: '`secret` or `publishable` (read-only, for browsers)' }) readonly kind!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) readonly scopes!: string[];
  @ApiProperty({ type: [String], description: 'Publishable keys: the browser origins that get CORS headers (empty for secret keys)' })
  readonly allowed_origins!: string[];
  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'Publishable keys: where the posts live (null otherwise)' })
  readonly site_url!: string | null;
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
    kind: key.kind,
    scopes: [...key.scopes],
    allowed_origins: [...key.allowedOrigins],
    site_url: key.siteUrl,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
