import type { Type } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import { OptionalNotNull } from './validators';

/** A body field is written for a create (POST) or a partial update (PATCH). */
export type BodyMode = 'create' | 'update';

const BODY_FIELD = 'almanac:body-field';

type FieldRules = (mode: BodyMode) => readonly PropertyDecorator[];

/** Applies decorators as if they were stacked on the property in this order (the lowest runs first). */
function stack(decorators: readonly PropertyDecorator[], target: object, key: string | symbol): void {
  for (let i = decorators.length - 1; i >= 0; i--) decorators[i]!(target, key);
}

/**
 * A body field's documentation and validation for both modes, written once on the create DTO's
 * property: `rules(mode)` lists its decorators as they would be stacked, so each bound is stated once
 * and a PATCH differs only where the mode says (optional, never null, no default, its own example).
 * The PATCH DTO takes the same field with `@PatchOf(CreateDto)`.
 */
export function BodyField(rules: FieldRules): PropertyDecorator {
  return (target, key) => {
    Reflect.defineMetadata(BODY_FIELD, rules, target, key);
    stack(rules('create'), target, key);
  };
}

/** The field of the same name on `create` (declared with `@BodyField`), in update mode. */
export function PatchOf(create: Type<unknown>): PropertyDecorator {
  return (target, key) => {
    const rules = Reflect.getOwnMetadata(BODY_FIELD, create.prototype as object, key) as FieldRules | undefined;
    if (!rules) throw new Error(`${create.name}.${String(key)} is not declared with @BodyField`);
    stack(rules('update'), target, key);
  };
}

/** Required on create (its validators refuse it absent); on PATCH optional, never null. */
export function requiredOnCreate(mode: BodyMode): PropertyDecorator[] {
  return mode === 'create' ? [] : [OptionalNotNull()];
}

/** Optional on create (absent or null: its default); on PATCH optional, never null. */
export function defaultedOnCreate(mode: BodyMode): PropertyDecorator[] {
  return [mode === 'create' ? IsOptional() : OptionalNotNull()];
}

/** Documentation only a create has (an example, a default): nothing on PATCH. */
export function createOnly<T extends object>(mode: BodyMode, options: T): T | Record<string, never> {
  return mode === 'create' ? options : {};
}
