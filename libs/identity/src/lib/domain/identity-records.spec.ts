import { DomainError, InvalidReferenceError } from '@almanac/shared/domain';
import { idleSince, isSessionActive, newAdminSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionInfoOf } from './admin-session';
import { ApiKeyCredential, isApiKeyUsable } from './api-key';
import { newOrganization } from './organization';
import { checkNewUser, maySignIn, User, UserCredentials } from './user';

const ORG = '0194a7a0-0000-7000-8000-000000000001';
const now = new Date('2026-03-01T12:00:00.000Z');

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidReferenceError) return `invalid_reference:${error.message}`;
    if (error instanceof DomainError) return `${error.code}:${error.message}`;
    throw error;
  }
  return 'ok';
}

describe('organization', () => {
  it('trims the name and refuses an empty or over-long one', () => {
    expect(newOrganization('id-1', '  Acme  ')).toEqual({ id: 'id-1', name: 'Acme' });
    expect(codeOf(() => newOrganization('id-1', '   '))).toBe('validation_failed:name must be 1-300 characters');
    expect(codeOf(() => newOrganization('id-1', 'x'.repeat(301)))).toBe('validation_failed:name must be 1-300 characters');
    expect(newOrganization('id-1', 'x'.repeat(300)).name).toHaveLength(300);
  });
});

describe('a new user', () => {
  const valid = { organizationId: ORG, email: 'ada@example.com', name: ' Ada ', password: 'long-enough' };

  it('defaults to admin and trims the name', () => {
    expect(checkNewUser(valid)).toEqual({ name: 'Ada', role: 'admin' });
    expect(checkNewUser({ ...valid, role: 'author', password: undefined })).toEqual({ name: 'Ada', role: 'author' });
  });

  it('checks the organization, the name, the role, the e-mail and an admin password, in that order', () => {
    const everythingWrong = { organizationId: 'nope', email: 'no-at', name: ' ', password: 'short', role: 'owner' as never };
    expect(codeOf(() => checkNewUser(everythingWrong))).toMatch(/^invalid_reference:/);
    expect(codeOf(() => checkNewUser({ ...everythingWrong, organizationId: ORG }))).toBe('validation_failed:name must be 1-300 characters');
    expect(codeOf(() => checkNewUser({ ...everythingWrong, organizationId: ORG, name: 'A' }))).toBe('validation_failed:role must be admin or author');
    expect(codeOf(() => checkNewUser({ ...everythingWrong, organizationId: ORG, name: 'A', role: 'admin' }))).toBe(
      'validation_failed:email is not an e-mail address',
    );
    expect(codeOf(() => checkNewUser({ ...everythingWrong, organizationId: ORG, name: 'A', role: 'admin', email: 'a@b.c' }))).toBe(
      'validation_failed:an admin needs a password of at least 8 characters',
    );
    expect(codeOf(() => checkNewUser({ ...valid, password: undefined }))).toBe('validation_failed:an admin needs a password of at least 8 characters');
  });

  it('lets only an admin with a password sign in', () => {
    const admin: UserCredentials = { id: 'u', organizationId: ORG, email: 'a@b.c', name: 'A', role: 'admin', passwordHash: 'hash' };
    expect(maySignIn(admin)).toBe(true);
    expect(maySignIn(null)).toBe(false);
    expect(maySignIn({ ...admin, passwordHash: null })).toBe(false);
    expect(maySignIn({ ...admin, role: 'author' })).toBe(false);
  });
});

describe('a new admin session', () => {
  const user: User = { id: 'user-1', organizationId: ORG, email: 'a@b.c', name: 'A', role: 'admin' };

  it('starts now, is seen now and ends after the absolute lifetime', () => {
    const session = newAdminSession('s-1', user, now);
    expect(session).toEqual({ id: 's-1', organizationId: ORG, userId: 'user-1', createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS) });
    expect(isSessionActive(session, now)).toBe(true);
    expect(sessionInfoOf(user)).toEqual({ userId: 'user-1', organizationId: ORG, role: 'admin', email: 'a@b.c', name: 'A' });
  });

  it('is idle too long exactly when last seen at or before idleSince(now)', () => {
    const session = newAdminSession('s-1', user, now);
    const later = new Date(now.getTime() + SESSION_IDLE_MS);
    expect(idleSince(later)).toEqual(now);
    expect(isSessionActive(session, later)).toBe(false);
    expect(isSessionActive(session, new Date(later.getTime() - 1))).toBe(true);
  });
});

describe('an API key', () => {
  const key: ApiKeyCredential = { id: 'k', name: 'Key', organizationId: ORG, userId: null, kind: 'secret', scopes: [], allowedOrigins: [], siteUrl: null, expiresAt: null, revokedAt: null, lastUsedAt: null };

  it('works until revoked, and until its expiry (exclusive)', () => {
    expect(isApiKeyUsable(key, now)).toBe(true);
    expect(isApiKeyUsable({ ...key, revokedAt: now }, now)).toBe(false);
    expect(isApiKeyUsable({ ...key, expiresAt: now }, now)).toBe(false);
    expect(isApiKeyUsable({ ...key, expiresAt: new Date(now.getTime() + 1) }, now)).toBe(true);
  });
});
