import 'reflect-metadata';
import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { registerDecorator } from 'class-validator';
import { ApiBodyRules, bodyRulesOf, deriveClassRules, documentValidator, documentedModels } from './openapi-constraints';
import { IsSlug, OptionalNotNull, simpleValidator } from './validators';

class Nested {
  @IsString() readonly name!: string;
}

@ApiExtraModels(Nested)
@ApiBodyRules({ dependentRequired: { from: ['to'] } })
class Sample {
  @IsInt() @Min(1) @Max(10) readonly count!: number;
  @IsOptional() @IsString() @MaxLength(5) @Matches(/\S/) readonly note?: string | null;
  @OptionalNotNull() @IsSlug() readonly slug?: string;
  @ValidateIf((o: Sample) => o.from !== undefined) @IsString() readonly from?: string;
  @OptionalNotNull() @ArrayMaxSize(3) @IsIn(['a', 'b'], { each: true }) readonly kinds?: string[];
  @ApiProperty({ type: () => Nested }) @ValidateNested() readonly nested!: Nested;
}

describe('deriveClassRules', () => {
  const rules = deriveClassRules(Sample);

  it('states class-validator decorators as JSON Schema keywords', () => {
    expect(rules.get('count')).toEqual({ schema: { type: 'integer', minimum: 1, maximum: 10 }, items: {}, nullable: false, required: true });
    expect(rules.get('note')).toEqual({ schema: { type: 'string', maxLength: 5, pattern: '\\S' }, items: {}, nullable: true, required: false });
  });

  it('takes a custom validator at its word (simpleValidator’s schema)', () => {
    expect(rules.get('slug')).toMatchObject({ schema: { type: 'string', minLength: 1, maxLength: 100 }, nullable: false, required: false });
  });

  it('makes `each` rules rules of the items, and any conditional validation optional (null only with @IsOptional)', () => {
    expect(rules.get('kinds')).toEqual({ schema: { maxItems: 3 }, items: { enum: ['a', 'b'] }, nullable: false, required: false });
    expect(rules.get('from')).toEqual({ schema: { type: 'string' }, items: {}, nullable: false, required: false });
    expect(rules.get('nested')).toEqual({ schema: {}, items: {}, nullable: false, required: true });
  });

  it('reads a rule given as a function when the document is built, not when the class is defined', () => {
    const known = ['a'];
    class Late {
      readonly values!: string[];
    }
    registerDecorator({ name: 'fewValues', target: Late, propertyName: 'values', validator: { validate: (v: unknown) => Array.isArray(v) && v.length <= known.length } });
    documentValidator(Late.prototype, 'values', 'fewValues', () => ({ maxItems: known.length }));
    known.push('b', 'c');
    expect(deriveClassRules(Late).get('values')).toMatchObject({ schema: { maxItems: 3 } });
  });

  it('refuses a custom validator that does not say what it enforces', () => {
    class Silent {
      readonly value!: string;
    }
    registerDecorator({ name: 'mystery', target: Silent, propertyName: 'value', validator: { validate: () => true } });
    expect(() => deriveClassRules(Silent)).toThrow(/"mystery" does not say what it enforces/);
  });

  it('refuses two validators that disagree on a keyword', () => {
    const Bad = simpleValidator('bad', () => true, 'bad', { type: 'number' });
    class Clash {
      @IsString() @Bad() readonly value!: string;
    }
    expect(() => deriveClassRules(Clash)).toThrow(/disagree on "type"/);
  });
});

describe('documentedModels and ApiBodyRules', () => {
  it('finds the classes a DTO documents (extra models, property types and thunks)', () => {
    expect(documentedModels(Sample)).toEqual([Nested, Nested]);
  });

  it('keeps the body rules of a class', () => {
    expect(bodyRulesOf(Sample)).toEqual({ dependentRequired: { from: ['to'] } });
    expect(bodyRulesOf(Nested)).toEqual({});
  });
});
