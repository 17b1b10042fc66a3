import { simpleValidator } from '@almanac/shared';
import { isMoneyAmount, MAX_COST } from '../../domain/money';

/** A dollar amount: a JSON number ≥ 0 with at most two decimals (19.99 yes, 0.001 no). */
export const IsMoney = simpleValidator(
  'isMoney',
  isMoneyAmount,
  `must be a number between 0 and ${MAX_COST} with at most two decimals`,
  // "At most two decimals" has no JSON Schema form that works on binary floating point (`multipleOf:
  // 0.01` refuses 19.99 in most validators): the field's description states it.
  { type: 'number', minimum: 0, maximum: MAX_COST },
);
