import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsSlug, OptionalNotNull, SLUG_MAX_LENGTH, SLUG_PATTERN } from '@almanac/shared';
import { IsString, Matches, MaxLength } from 'class-validator';

const NAME = { minLength: 1, maxLength: 300, example: 'Engineering' };
const SLUG = {
  pattern: SLUG_PATTERN.source,
  maxLength: SLUG_MAX_LENGTH,
  example: 'engineering',
  description: 'Unique in the organization; generated from the name when absent (taken: 409 slug_taken)',
};

export class CreatePostCategoryDto {
  @ApiProperty(NAME)
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(300)
  readonly name!: string;

  @ApiPropertyOptional(SLUG)
  @OptionalNotNull()
  @IsSlug()
  readonly slug?: string;
}

export class UpdatePostCategoryDto {
  @ApiPropertyOptional(NAME)
  @OptionalNotNull()
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(300)
  readonly name?: string;

  @ApiPropertyOptional({ ...SLUG, description: 'Unique in the organization (taken: 409 slug_taken); not regenerated on rename' })
  @OptionalNotNull()
  @IsSlug()
  readonly slug?: string;
}

export class CreatePostTagDto extends CreatePostCategoryDto {}
export class UpdatePostTagDto extends UpdatePostCategoryDto {}
