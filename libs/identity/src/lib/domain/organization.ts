import { validName } from './identity-name';

/**
 * A tenant: everything else belongs to exactly one organization. A type rather than an interface so
 * that it stays a plain record (the CLI prints it as `{ id, name }`).
 */
export type Organization = {
  readonly id: string;
  readonly name: string;
};

/** A new organization with a valid (trimmed) name. */
export function newOrganization(id: string, name: string): Organization {
  return { id, name: validName(name) };
}
