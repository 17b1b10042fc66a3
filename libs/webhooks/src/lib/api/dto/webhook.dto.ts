import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { documentValidator, IsHttpUrl, MAX_QUERY_INTEGER, OptionalNotNull, PageQuery, QueryInt, simpleValidator } from '@almanac/shared';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  registerDecorator,
} from 'class-validator';
import { SUBSCRIBABLE_EVENTS } from '../../application/event-types';
import { DELIVERY_STATUSES, DeliveryStatus } from '../../domain/webhook';
import { CURSOR_PATTERN, decodeCursor } from '../../domain/feed-cursor';

const EVENT_NAMES = SUBSCRIBABLE_EVENTS;

/**
 * At most as many entries as there are names to subscribe to (duplicates are dropped anyway). The
 * bound is read when the rule runs, not when this class is defined: contexts declare their event
 * types as their modules load.
 */
function ArrayMaxSizeOfEventNames(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'arrayMaxSizeOfEventNames',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: () => `must contain no more than ${EVENT_NAMES.length} elements` },
      validator: { validate: (value: unknown) => Array.isArray(value) && value.length <= EVENT_NAMES.length },
    });
    documentValidator(target, propertyName, 'arrayMaxSizeOfEventNames', () => ({ maxItems: EVENT_NAMES.length }));
  };
}

const URL_DOC = {
  example: 'https://example.com/hooks/almanac',
  maxLength: 2000,
  description: 'Absolute http(s) URL; loopback and private addresses are refused (also at delivery time).',
};
const EVENTS_DOC = {
  isArray: true,
  enum: EVENT_NAMES,
  enumName: 'WebhookEventType',
  minItems: 1,
  example: ['booking.created', 'booking.cancelled'],
  description: 'Event types to deliver, or `["*"]` for all',
};

export class CreateWebhookDto {
  @ApiProperty(URL_DOC)
  @IsHttpUrl()
  readonly url!: string;

  @ApiProperty(EVENTS_DOC)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSizeOfEventNames()
  @IsIn(EVENT_NAMES, { each: true })
  readonly events!: string[];

  @ApiPropertyOptional({ maxLength: 300, nullable: true, example: 'CRM sync' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  readonly description?: string | null;

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  readonly enabled?: boolean;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional(URL_DOC)
  @OptionalNotNull()
  @IsHttpUrl()
  readonly url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSizeOfEventNames()
  @IsIn(EVENT_NAMES, { each: true })
  readonly events?: string[];

  @ApiPropertyOptional({ maxLength: 300, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  readonly description?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  readonly enabled?: boolean;
}

export class DeliveryListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  readonly status?: DeliveryStatus;
}

/** A cursor the feed takes (decodeCursor): the document gives its pattern. */
const IsFeedCursor = simpleValidator('isFeedCursor', (value) => typeof value === 'string' && decodeCursor(value) !== null, 'is not a cursor this feed gave out', {
  type: 'string',
  pattern: CURSOR_PATTERN,
});

export class ChangesQuery {
  @ApiPropertyOptional({
    description:
      'The `next_cursor` of the previous page (`{transaction}.{position}`); absent: from the oldest kept event. ' +
      'The base64url cursors given out before are still taken.',
    example: '1234567.8',
  })
  @IsOptional()
  @IsFeedCursor()
  readonly after?: string;

  @ApiPropertyOptional({
    type: 'integer',
    default: 100,
    description: 'Page size; values above 1000 are clamped to 1000',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_QUERY_INTEGER)
  readonly limit?: number;
}
