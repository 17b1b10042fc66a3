import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiBodyRules, IsDateTimeWithZone, IsHttpUrl, IsSlug, IsSupportedInstant, OptionalNotNull, SLUG_MAX_LENGTH, SLUG_PATTERN } from '@almanac/shared';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { POST_STATUSES, PostStatus } from '../../domain/post-status';
import { CONTENT_BLOCK_MODELS, ContentBlockDto, ContentBlocks } from './content-block.dto';

export const MAX_TAGS_PER_POST = 100;

const STATUS_DOC =
  'draft, published, scheduled or archived. Any move between them is allowed; `scheduled` needs a future ' +
  '`published_at`; becoming `published` without a `published_at` sets it to now.';

@ApiExtraModels(...CONTENT_BLOCK_MODELS)
// A new scheduled post needs its publication date (in the future: that part only the server can check).
@ApiBodyRules({
  if: { required: ['status'], properties: { status: { const: 'scheduled' } } },
  then: { required: ['published_at'], properties: { published_at: { type: 'string' } } },
})
export class CreatePostDto {
  @ApiProperty({ minLength: 1, maxLength: 300, example: 'How we schedule our week' })
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(300)
  readonly title!: string;

  @ApiProperty({ pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX_LENGTH, example: 'how-we-schedule', description: 'Unique in the organization' })
  @IsSlug()
  readonly slug!: string;

  @ApiPropertyOptional({ type: String, maxLength: 5000, nullable: true, example: 'Three habits that keep our calendar sane.' })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  readonly excerpt?: string | null;

  @ContentBlocks({ required: false, description: 'Content blocks (at most 500); default []' })
  readonly content?: ContentBlockDto[];

  @ApiPropertyOptional({ type: String, format: 'uri', nullable: true, example: 'https://cdn.example.com/cover.jpg' })
  @IsOptional()
  @IsHttpUrl()
  readonly featured_image_url?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'A category of the organization' })
  @IsOptional()
  @IsUUID('all')
  readonly category_id?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_TAGS_PER_POST, description: 'Tags of the organization' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS_PER_POST)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  readonly tag_ids?: string[];

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "A user of the organization; defaults to the API key's user (null: no author)",
  })
  @IsOptional()
  @IsUUID('all')
  readonly author_id?: string | null;

  @ApiPropertyOptional({ enum: POST_STATUSES, default: 'draft', description: STATUS_DOC })
  @OptionalNotNull()
  @IsIn(POST_STATUSES)
  readonly status?: PostStatus;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  readonly is_featured?: boolean;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2026-12-01T09:00:00Z', description: 'ISO 8601 with a zone' })
  @IsOptional()
  @IsDateTimeWithZone()
  @IsSupportedInstant()
  readonly published_at?: string | null;
}

@ApiExtraModels(...CONTENT_BLOCK_MODELS)
export class UpdatePostDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 300 })
  @OptionalNotNull()
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(300)
  readonly title?: string;

  @ApiPropertyOptional({ pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX_LENGTH })
  @OptionalNotNull()
  @IsSlug()
  readonly slug?: string;

  @ApiPropertyOptional({ type: String, maxLength: 5000, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  readonly excerpt?: string | null;

  @ContentBlocks({ required: false, description: 'Replaces the content (at most 500 blocks)' })
  readonly content?: ContentBlockDto[];

  @ApiPropertyOptional({ type: String, format: 'uri', nullable: true })
  @IsOptional()
  @IsHttpUrl()
  readonly featured_image_url?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'null removes the category' })
  @IsOptional()
  @IsUUID('all')
  readonly category_id?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_TAGS_PER_POST, description: 'Replaces the tags ([] removes them)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS_PER_POST)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  readonly tag_ids?: string[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'null removes the author' })
  @IsOptional()
  @IsUUID('all')
  readonly author_id?: string | null;

  @ApiPropertyOptional({ enum: POST_STATUSES, description: STATUS_DOC })
  @OptionalNotNull()
  @IsIn(POST_STATUSES)
  readonly status?: PostStatus;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  readonly is_featured?: boolean;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'ISO 8601 with a zone; null clears it' })
  @IsOptional()
  @IsDateTimeWithZone()
  @IsSupportedInstant()
  readonly published_at?: string | null;
}
