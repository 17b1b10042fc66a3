import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ApiBodyRules,
  BodyField,
  createOnly,
  IsDateTimeWithZone,
  IsHttpUrl,
  IsSlug,
  IsSupportedInstant,
  OptionalNotNull,
  PatchOf,
  requiredOnCreate,
  SLUG_MAX_LENGTH,
  SLUG_PATTERN,
} from '@almanac/shared';
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
  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ minLength: 1, maxLength: 300, example: 'How we schedule our week' })
      : ApiPropertyOptional({ minLength: 1, maxLength: 300 }),
    ...requiredOnCreate(mode),
    IsString(),
    Matches(/\S/, { message: 'must not be blank' }),
    MaxLength(300),
  ])
  readonly title!: string;

  @BodyField((mode) => [
    mode === 'create'
      ? ApiProperty({ pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX_LENGTH, example: 'how-we-schedule', description: 'Unique in the organization' })
      : ApiPropertyOptional({ pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX_LENGTH }),
    ...requiredOnCreate(mode),
    IsSlug(),
  ])
  readonly slug!: string;

  @BodyField((mode) => [
    ApiPropertyOptional({ type: String, maxLength: 5000, nullable: true, ...createOnly(mode, { example: 'Three habits that keep our calendar sane.' }) }),
    IsOptional(),
    IsString(),
    MaxLength(5000),
  ])
  readonly excerpt?: string | null;

  @BodyField((mode) => [
    ContentBlocks({ required: false, description: mode === 'create' ? 'Content blocks (at most 500); default []' : 'Replaces the content (at most 500 blocks)' }),
  ])
  readonly content?: ContentBlockDto[];

  @BodyField((mode) => [
    ApiPropertyOptional({ type: String, format: 'uri', nullable: true, ...createOnly(mode, { example: 'https://cdn.example.com/cover.jpg' }) }),
    IsOptional(),
    IsHttpUrl(),
  ])
  readonly featured_image_url?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description: mode === 'create' ? 'A category of the organization' : 'null removes the category',
    }),
    IsOptional(),
    IsUUID('all'),
  ])
  readonly category_id?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional({
      type: [String],
      format: 'uuid',
      maxItems: MAX_TAGS_PER_POST,
      description: mode === 'create' ? 'Tags of the organization' : 'Replaces the tags ([] removes them)',
    }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_TAGS_PER_POST),
    ArrayUnique(),
    IsUUID('all', { each: true }),
  ])
  readonly tag_ids?: string[];

  @BodyField((mode) => [
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description: mode === 'create' ? "A user of the organization; defaults to the API key's user (null: no author)" : 'null removes the author',
    }),
    IsOptional(),
    IsUUID('all'),
  ])
  readonly author_id?: string | null;

  @BodyField((mode) => [
    ApiPropertyOptional({ enum: POST_STATUSES, ...createOnly(mode, { default: 'draft' }), description: STATUS_DOC }),
    OptionalNotNull(),
    IsIn(POST_STATUSES),
  ])
  readonly status?: PostStatus;

  @BodyField((mode) => [ApiPropertyOptional(createOnly(mode, { default: false })), OptionalNotNull(), IsBoolean()])
  readonly is_featured?: boolean;

  @BodyField((mode) => [
    ApiPropertyOptional({
      type: String,
      format: 'date-time',
      nullable: true,
      ...(mode === 'create'
        ? { example: '2026-12-01T09:00:00Z', description: 'ISO 8601 with a zone' }
        : { description: 'ISO 8601 with a zone; null clears it' }),
    }),
    IsOptional(),
    IsDateTimeWithZone(),
    IsSupportedInstant(),
  ])
  readonly published_at?: string | null;
}

@ApiExtraModels(...CONTENT_BLOCK_MODELS)
export class UpdatePostDto {
  @PatchOf(CreatePostDto) readonly title?: string;
  @PatchOf(CreatePostDto) readonly slug?: string;
  @PatchOf(CreatePostDto) readonly excerpt?: string | null;
  @PatchOf(CreatePostDto) readonly content?: ContentBlockDto[];
  @PatchOf(CreatePostDto) readonly featured_image_url?: string | null;
  @PatchOf(CreatePostDto) readonly category_id?: string | null;
  @PatchOf(CreatePostDto) readonly tag_ids?: string[];
  @PatchOf(CreatePostDto) readonly author_id?: string | null;
  @PatchOf(CreatePostDto) readonly status?: PostStatus;
  @PatchOf(CreatePostDto) readonly is_featured?: boolean;
  @PatchOf(CreatePostDto) readonly published_at?: string | null;
}
