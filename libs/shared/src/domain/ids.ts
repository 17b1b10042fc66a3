import { v7 as uuidv7, validate, version } from 'uuid';

/** Time-ordered UUID v7: index-friendly and sortable by creation time. */
export function newId(): string {
  return uuidv7();
}

export function isUuid(value: string): boolean {
  return validate(value) && version(value) >= 1;
}
