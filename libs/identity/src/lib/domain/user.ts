import { DomainError, InvalidReferenceError, isUuid } from '@almanac/shared/domain';
import { validName } from './identity-name';

export type UserRole = 'admin' | 'author';

/** A user of an organization, as the application hands it out (never its password hash). */
export interface User {
  readonly id: string;
  readonly organizationId: string;
  readonly email: string;
  readonly name: string;
  readonly role: UserRole;
}

/** A user with what a sign-in is verified against. */
export interface UserCredentials extends User {
  readonly passwordHash: string | null;
}

export interface NewUserInput {
  readonly organizationId: string;
  readonly email: string;
  readonly name: string;
  readonly password?: string;
  readonly role?: UserRole;
}

/**
 * The checks of a new user, in this order: the organization id, the name, the role (admin by
 * default), the e-mail, and an admin's password (at least 8 characters). Returns the trimmed name and role.
 */
export function checkNewUser(input: NewUserInput): { name: string; role: UserRole } {
  if (!isUuid(input.organizationId)) throw new InvalidReferenceError('organization_id');
  const name = validName(input.name);
  const role = input.role ?? 'admin';
  if (role !== 'admin' && role !== 'author') throw new DomainError('validation_failed', 'role must be admin or author');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) throw new DomainError('validation_failed', 'email is not an e-mail address');
  if (role === 'admin' && (!input.password || input.password.length < 8)) {
    throw new DomainError('validation_failed', 'an admin needs a password of at least 8 characters');
  }
  return { name, role };
}

/** Only an admin with a password may sign in to the console. */
export function maySignIn(user: UserCredentials | null): user is UserCredentials & { passwordHash: string } {
  return user !== null && user.passwordHash !== null && user.role === 'admin';
}
