import { DomainError } from '@almanac/shared/domain';

/** The trimmed name of an organization, user or API key: 1-300 characters. */
export function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 300) throw new DomainError('validation_failed', 'name must be 1-300 characters');
  return trimmed;
}
