import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalNotNull } from '@almanac/shared';
import { IsInt, Max, Min } from 'class-validator';
import { PREVIEW_DEFAULT_MINUTES, PREVIEW_MAX_MINUTES, PREVIEW_MIN_MINUTES } from '../../domain/preview-link';

export class CreatePreviewLinkDto {
  @ApiPropertyOptional({
    type: 'integer',
    example: 60,
    description: `How long the link works, in minutes (${PREVIEW_MIN_MINUTES}–${PREVIEW_MAX_MINUTES}); ${PREVIEW_DEFAULT_MINUTES} (a day) when absent`,
  })
  @OptionalNotNull()
  @IsInt()
  @Min(PREVIEW_MIN_MINUTES)
  @Max(PREVIEW_MAX_MINUTES)
  readonly expires_in_minutes?: number;
}

export class PreviewLinkResponse {
  @ApiProperty({
    example: 'https://almanac.example/public/v1/previews/3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue',
    description: 'The secret address: shown only here (only a hash of its token is stored)',
  })
  readonly url!: string;
  @ApiProperty({ format: 'date-time' }) readonly expires_at!: string;
}
