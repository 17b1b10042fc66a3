import { registerDecorator, ValidationOptions } from 'class-validator';
import { isMoneyAmount, MAX_COST } from '../../domain/money';

/** A dollar amount: a JSON number ≥ 0 with at most two decimals (19.99 yes, 0.001 no). */
export function IsMoney(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isMoney',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `must be a number between 0 and ${MAX_COST} with at most two decimals`, ...options },
      validator: { validate: (value: unknown) => isMoneyAmount(value) },
    });
}
