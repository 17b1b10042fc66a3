import { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe, DomainError, FieldError } from '@almanac/shared';
import { CreatePostDto, UpdatePostDto } from './post-input.dto';

const pipe = createValidationPipe();

async function errorsOf(metatype: ArgumentMetadata['metatype'], body: unknown): Promise<readonly FieldError[]> {
  try {
    await pipe.transform(body, { type: 'body', metatype });
    return [];
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return error.errors ?? [];
  }
}

const post = (content: unknown) => ({ title: 'T', slug: 't', content });
const longText = 'x'.repeat(10_000);

describe('content blocks', () => {
  it.each<[string, unknown]>([
    ['every block type', [
      { type: 'heading', level: 1, text: 'H1' },
      { type: 'heading', level: 6, text: 'H6' },
      { type: 'paragraph', text: '' },
      { type: 'paragraph', text: longText },
      { type: 'image', url: 'https://cdn.example.com/a.png', alt: '' },
      { type: 'image', url: 'http://example.com/b.png?x=1#y', alt: 'B' },
      { type: 'list', items: ['one'] },
      { type: 'list', items: Array.from({ length: 1000 }, (_, i) => `item ${i}`) },
      { type: 'quote', text: 'Q' },
      { type: 'quote', text: 'Q', author: 'A' },
    ]],
    ['no blocks', []],
    ['500 blocks', Array.from({ length: 500 }, () => ({ type: 'paragraph', text: 'p' }))],
  ])('accepts %s', async (_name, content) => {
    expect(await errorsOf(CreatePostDto, post(content))).toEqual([]);
  });

  it.each<[string, unknown, FieldError[]]>([
    ['a heading of level 7', [{ type: 'heading', level: 7, text: 'x' }], [{ field: 'content[0].level', message: 'must not be greater than 6' }]],
    ['a heading of level 0', [{ type: 'heading', level: 0, text: 'x' }], [{ field: 'content[0].level', message: 'must not be less than 1' }]],
    ['a heading of level 2.5', [{ type: 'heading', level: 2.5, text: 'x' }], [{ field: 'content[0].level', message: 'must be an integer number' }]],
    ['a heading level as a string', [{ type: 'heading', level: '2', text: 'x' }], [{ field: 'content[0].level', message: 'must be an integer number' }]],
    ['a heading with empty text', [{ type: 'heading', level: 2, text: '' }], [{ field: 'content[0].text', message: 'should not be empty' }]],
    ['a heading without level', [{ type: 'heading', text: 'x' }], [{ field: 'content[0].level', message: 'must be an integer number' }]],
    ['a paragraph without text', [{ type: 'paragraph' }], [{ field: 'content[0].text', message: 'must be a string' }]],
    ['an image with a relative URL', [{ type: 'paragraph', text: 'ok' }, { type: 'image', url: '/img/a.png', alt: 'a' }], [{ field: 'content[1].url', message: 'must be an absolute http(s) URL' }]],
    ['an image with a data: URL', [{ type: 'image', url: 'data:image/png;base64,AAAA', alt: 'a' }], [{ field: 'content[0].url', message: 'must be an absolute http(s) URL' }]],
    ['an image without alt', [{ type: 'image', url: 'https://example.com/a.png' }], [{ field: 'content[0].alt', message: 'must be a string' }]],
    ['a list with no items', [{ type: 'list', items: [] }], [{ field: 'content[0].items', message: 'must contain at least one item' }]],
    ['a list of 1,001 items', [{ type: 'list', items: Array.from({ length: 1001 }, () => 'i') }], [{ field: 'content[0].items', message: 'must contain no more than 1000 elements' }]],
    ['a list with a number item', [{ type: 'list', items: ['a', 3] }], [{ field: 'content[0].items', message: 'each value in items must be a string' }]],
    ['a list whose items is a string', [{ type: 'list', items: 'a' }], [{ field: 'content[0].items', message: 'must contain at least one item' }]],
    ['a quote with a number author', [{ type: 'quote', text: 'q', author: 7 }], [{ field: 'content[0].author', message: 'must be a string' }]],
    ['an unknown block type', [{ type: 'video', url: 'https://example.com/v.mp4' }], [{ field: 'content[0].type', message: 'must be one of: heading, paragraph, image, list, quote' }]],
    ['a block without type', [{ text: 'x' }], [{ field: 'content[0].type', message: 'must be one of: heading, paragraph, image, list, quote' }]],
    ['a type that names an Object.prototype member', [{ type: 'toString', text: 'x' }], [{ field: 'content[0].type', message: 'must be one of: heading, paragraph, image, list, quote' }]],
    ['an extra field', [{ type: 'paragraph', text: 'x', style: 'bold' }], [{ field: 'content[0].style', message: 'property style should not exist' }]],
    ['a field of another block type', [{ type: 'paragraph', text: 'x', level: 2 }], [{ field: 'content[0].level', message: 'property level should not exist' }]],
    ['a field named like an Object.prototype member', [{ type: 'paragraph', text: 'x', hasOwnProperty: 1 }], [{ field: 'content[0]', message: 'has an unknown field "hasOwnProperty"' }]],
    ['a block that is a string', ['just text'], [{ field: 'content[0]', message: 'must be a content block object' }]],
    ['a block that is null', [null], [{ field: 'content[0]', message: 'must be a content block object' }]],
    ['a block that is an array', [[{ type: 'paragraph', text: 'x' }]], [{ field: 'content[0]', message: 'must be a content block object' }]],
    ['content that is an object', { type: 'paragraph', text: 'x' }, [{ field: 'content', message: 'must be an array of content blocks' }]],
    ['content that is a string', 'text', [{ field: 'content', message: 'must be an array of content blocks' }]],
    ['501 blocks', Array.from({ length: 501 }, () => ({ type: 'paragraph', text: 'p' })), [{ field: 'content', message: 'must contain at most 500 blocks' }]],
  ])('refuses %s', async (_name, content, expected) => {
    // Every failing constraint is listed (a string level also fails min and max); the paths are exact.
    const errors = await errorsOf(CreatePostDto, post(content));
    expect(errors).toEqual(expect.arrayContaining(expected));
    expect([...new Set(errors.map((e) => e.field))]).toEqual([...new Set(expected.map((e) => e.field))]);
  });

  it('reports every failing block, each at its own path', async () => {
    const errors = await errorsOf(
      CreatePostDto,
      post([
        { type: 'heading', level: 9, text: 'x' },
        { type: 'paragraph', text: 'fine' },
        { type: 'image', url: 'a.png', alt: 'a', width: 3 },
      ]),
    );
    expect(errors.map((e) => e.field)).toEqual(['content[0].level', 'content[2].width', 'content[2].url']);
  });

  it('keeps the blocks exactly as sent', async () => {
    const content = [
      { type: 'quote', text: 'Ünïcödé <b>"x"</b>', author: "O'Brien" },
      { type: 'list', items: ['a', 'b'] },
    ];
    const dto = (await pipe.transform(post(content), { type: 'body', metatype: CreatePostDto })) as CreatePostDto;
    expect(JSON.parse(JSON.stringify(dto.content))).toEqual(content);
  });

  it('takes null content as an error on update, and absent content as "unchanged"', async () => {
    expect(await errorsOf(UpdatePostDto, { content: null })).toEqual([{ field: 'content', message: 'must be an array of content blocks' }]);
    expect(await errorsOf(UpdatePostDto, { title: 'x' })).toEqual([]);
  });
});
