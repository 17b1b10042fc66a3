import { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe, DomainError } from '@almanac/shared';
import { CreatePostDto } from './post-input.dto';

const pipe = createValidationPipe();
const meta: ArgumentMetadata = { type: 'body', metatype: CreatePostDto };

async function errorsOf(body: unknown) {
  try {
    await pipe.transform(body, meta);
    return [];
  } catch (error) {
    return (error as DomainError).errors;
  }
}

describe('scratch', () => {
  it('prints', async () => {
    const base = { title: 'T', slug: 't' };
    for (const content of [
      [{ type: 'heading', level: 7, text: 'x' }],
      [{ type: 'heading', level: 2, text: '' }],
      [5, null, [1], 'x'],
      [{ type: 'nope', foo: 1 }],
      [{ foo: 1 }],
      [{ type: 'image', url: '/a.png', alt: 'a' }],
      [{ type: 'list', items: [] }],
      [{ type: 'list', items: ['a', 3] }],
      [{ type: 'paragraph', text: 'x', extra: 1 }],
      JSON.parse('[{"type":"paragraph","text":"x","__proto__":{"a":1}}]'),
      [{ type: 'quote', text: 'x' }],
      [{ type: 'quote', text: 'x', constructor: 1 }],
      [{ type: 'quote', text: 'x', hasOwnProperty: 1 }],
      { a: 1 },
      Array.from({ length: 501 }, () => ({ type: 'paragraph', text: 'p' })),
      null,
      'x',
    ]) {
      console.log(JSON.stringify(content), JSON.stringify(await errorsOf({ ...base, content })));
    }
    console.log(JSON.stringify(await errorsOf(undefined)));
    const ok = await pipe.transform({ ...base, content: [{ type: 'quote', text: 'x', author: 'y' }] }, meta);
    console.log(JSON.stringify(ok));
  });
});
