import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsHttpUrl, OptionalNotNull, simpleValidator } from '@almanac/shared';
import { Transform, TransformFnParams } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, ValidateNested, ValidationArguments } from 'class-validator';
import {
  CONTENT_BLOCK_TYPES,
  ContentBlockType,
  MAX_CONTENT_BLOCKS,
  MAX_HEADING_LEVEL,
  MAX_LIST_ITEMS,
  MIN_HEADING_LEVEL,
} from '../../domain/content-block';

/*
 * Content blocks are a union discriminated by `type`. class-transformer's own discriminator cannot
 * reject an unknown type or keep the raw block, so `@ContentBlocks()` picks the class of each block
 * itself; class-validator then checks every block with the global pipe's rules (whitelist, no unknown
 * field), and its errors carry paths such as `content[2].level`.
 */

export class HeadingContentBlock {
  @ApiProperty({ enum: ['heading'], example: 'heading' })
  @IsIn(['heading'])
  readonly type!: 'heading';

  @ApiProperty({ type: 'integer', minimum: MIN_HEADING_LEVEL, maximum: MAX_HEADING_LEVEL, example: 2 })
  @IsInt()
  @Min(MIN_HEADING_LEVEL)
  @Max(MAX_HEADING_LEVEL)
  readonly level!: number;

  @ApiProperty({ minLength: 1, example: 'Why we schedule' })
  @IsString()
  @IsNotEmpty()
  readonly text!: string;
}

export class ParagraphContentBlock {
  @ApiProperty({ enum: ['paragraph'], example: 'paragraph' })
  @IsIn(['paragraph'])
  readonly type!: 'paragraph';

  @ApiProperty({ example: 'Running a calendar is mostly about saying no.' })
  @IsString()
  readonly text!: string;
}

export class ImageContentBlock {
  @ApiProperty({ enum: ['image'], example: 'image' })
  @IsIn(['image'])
  readonly type!: 'image';

  @ApiProperty({ format: 'uri', maxLength: 2000, example: 'https://cdn.example.com/desk.jpg', description: 'Absolute http(s) URL' })
  @IsHttpUrl()
  readonly url!: string;

  @ApiProperty({ example: 'A tidy desk', description: 'Alternative text (may be empty for a decorative image)' })
  @IsString()
  readonly alt!: string;
}

export class ListContentBlock {
  @ApiProperty({ enum: ['list'], example: 'list' })
  @IsIn(['list'])
  readonly type!: 'list';

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_LIST_ITEMS, example: ['Plan', 'Book', 'Meet'] })
  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one item' })
  @ArrayMaxSize(MAX_LIST_ITEMS)
  @IsString({ each: true })
  readonly items!: string[];
}

export class QuoteContentBlock {
  @ApiProperty({ enum: ['quote'], example: 'quote' })
  @IsIn(['quote'])
  readonly type!: 'quote';

  @ApiProperty({ example: 'Time is what we want most, but what we use worst.' })
  @IsString()
  readonly text!: string;

  @ApiPropertyOptional({ example: 'William Penn' })
  @IsOptional()
  @IsString()
  readonly author?: string;
}

/** Stands in for a block whose `type` is missing or unknown: only the type is reported. */
class UnknownContentBlock {
  @IsIn(CONTENT_BLOCK_TYPES, { message: `type must be one of: ${CONTENT_BLOCK_TYPES.join(', ')}` })
  readonly type!: unknown;
}

export type ContentBlockDto =
  | HeadingContentBlock
  | ParagraphContentBlock
  | ImageContentBlock
  | ListContentBlock
  | QuoteContentBlock;

const BLOCK_CLASSES: Record<ContentBlockType, new () => object> = {
  heading: HeadingContentBlock,
  paragraph: ParagraphContentBlock,
  image: ImageContentBlock,
  list: ListContentBlock,
  quote: QuoteContentBlock,
};

export const CONTENT_BLOCK_MODELS = Object.values(BLOCK_CLASSES);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/*
 * What the nested validation reports at `content[i]` instead of a block. class-validator's whitelist
 * looks field names up in a plain object, so names inherited from Object.prototype (`hasOwnProperty`,
 * `isPrototypeOf`…) would escape it; a block carrying one is reported here. (`__proto__`, `prototype`
 * and `constructor` never get this far: jsonBodyMiddleware refuses them in any body.)
 */
const NOT_AN_OBJECT = Symbol('not an object');
const inheritedField = (name: string): symbol => Symbol(`field:${name}`);

/** One block as an instance of its class, with exactly the block's own fields (nothing added). */
function toBlockInstance(raw: unknown): unknown {
  if (!isPlainObject(raw)) return NOT_AN_OBJECT;
  const inherited = Object.keys(raw).find((key) => key in Object.prototype);
  if (inherited !== undefined) return inheritedField(inherited);
  const type = raw['type'];
  const blockClass = typeof type === 'string' && Object.hasOwn(BLOCK_CLASSES, type) ? BLOCK_CLASSES[type as ContentBlockType] : undefined;
  if (!blockClass) return Object.assign(new UnknownContentBlock(), { type });
  return Object.assign(new blockClass(), raw);
}

/** The message for a value that is not a block, or for `content` itself when it is not an array (null). */
function notABlockMessage(args: ValidationArguments): string {
  const value: unknown = args.value;
  if (value === NOT_AN_OBJECT) return 'must be a content block object';
  if (typeof value === 'symbol') return `has an unknown field "${(value.description ?? '').slice('field:'.length)}"`;
  return 'must be an array of content blocks';
}

/** At most `max` elements (a value that is not an array is reported by the nested validation). */
const ArrayAtMost = (max: number): PropertyDecorator =>
  simpleValidator('arrayAtMost', (value) => !Array.isArray(value) || value.length <= max, `must contain at most ${max} blocks`, { maxItems: max })();

function contentBlocksSchema(description: string | undefined) {
  return {
    type: 'array' as const,
    maxItems: MAX_CONTENT_BLOCKS,
    description,
    items: {
      oneOf: CONTENT_BLOCK_MODELS.map((model) => ({ $ref: getSchemaPath(model) })),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(Object.entries(BLOCK_CLASSES).map(([type, model]) => [type, getSchemaPath(model)])),
      },
    },
  };
}

/** Documents a `content` array: `oneOf` the five block schemas, discriminated by `type`. */
export function ApiContentBlocks(options: { required: boolean; description?: string }): PropertyDecorator {
  const schema = contentBlocksSchema(options.description);
  return options.required ? ApiProperty(schema) : ApiPropertyOptional(schema);
}

/** `content` input: an array of at most 500 content blocks, each validated by its own type. */
export function ContentBlocks(options: { required: boolean; description?: string }): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ApiContentBlocks(options),
    Transform(({ value: raw }: TransformFnParams) => {
      if (raw === undefined) return undefined;
      // Anything but an array is reported once, as "must be an array of content blocks".
      return Array.isArray(raw) ? raw.map(toBlockInstance) : null;
    }),
    ArrayAtMost(MAX_CONTENT_BLOCKS),
    ValidateNested({ each: true, message: notABlockMessage }),
  ];
  // Absent is fine when optional; null never is (an empty array says "no content").
  if (!options.required) decorators.unshift(OptionalNotNull());
  return (target: object, propertyName: string | symbol) => {
    for (const decorator of decorators) decorator(target, propertyName);
  };
}
