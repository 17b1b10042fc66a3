import type request from 'supertest';
import { Tenant, TestApp } from './test-app';

/** The origin the test app's APP_URL names: session requests must come from it. */
export const ADMIN_ORIGIN = 'http://localhost:3000';
export const ADMIN_PASSWORD = 'correct horse battery';

export interface SignedInAdmin extends Tenant {
  /** `almanac_session=…`, for the Cookie header. */
  cookie: string;
  userId: string;
  email: string;
  name: string;
}

let counter = 0;

/** A new organization (with an API key) and an admin of it, signed in through POST /api/auth/login. */
export async function signedInAdmin(t: TestApp, label = 'admin'): Promise<SignedInAdmin> {
  counter += 1;
  const tenant = await t.tenant({ name: `${label} org ${counter}` });
  const email = `${label}${counter}@example.com`;
  const name = `${label} ${counter}`;
  const user = await t.identity.createUser({ organizationId: tenant.orgId, email, name, password: ADMIN_PASSWORD, role: 'admin' });
  const login = await t.api.post('/api/auth/login').set('Origin', ADMIN_ORIGIN).send({ email, password: ADMIN_PASSWORD }).expect(200);
  return { ...tenant, cookie: String(login.headers['set-cookie']![0]).split(';')[0]!, userId: user.id, email, name };
}

/** A checked request with the admin's session cookie and the app's own Origin. */
export function asAdmin(t: TestApp, admin: Pick<SignedInAdmin, 'cookie'>, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string): request.Test {
  return t.api[method](path).set('Cookie', admin.cookie).set('Origin', ADMIN_ORIGIN);
}
