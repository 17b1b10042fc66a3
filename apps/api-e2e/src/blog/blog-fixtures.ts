import type { Tenant, TestApp } from '../support/test-app';

/** Helpers shared by the blog suites: records made through the API, users through identity. */
export interface BlogFixtures {
  category(tenant: Tenant, body: Record<string, unknown>): Promise<{ id: string; slug: string; name: string }>;
  tag(tenant: Tenant, body: Record<string, unknown>): Promise<{ id: string; slug: string; name: string }>;
  post(tenant: Tenant, body: Record<string, unknown>): Promise<Record<string, any>>;
  /** A user of the tenant's organization, and an API key issued for that user. */
  author(tenant: Tenant, name: string): Promise<{ id: string; name: string; auth: Record<string, string> }>;
}

let sequence = 0;

export function blogFixtures(t: TestApp): BlogFixtures {
  return {
    async category(tenant, body) {
      const res = await t.api.post('/api/v1/posts/categories').set(tenant.auth).send(body).expect(201);
      return res.body.data;
    },
    async tag(tenant, body) {
      const res = await t.api.post('/api/v1/posts/tags').set(tenant.auth).send(body).expect(201);
      return res.body.data;
    },
    async post(tenant, body) {
      sequence += 1;
      const res = await t.api
        .post('/api/v1/posts')
        .set(tenant.auth)
        .send({ title: `Post ${sequence}`, slug: `post-${sequence}`, ...body })
        .expect(201);
      return res.body.data;
    },
    async author(tenant, name) {
      sequence += 1;
      const user = await t.identity.createUser({
        organizationId: tenant.orgId,
        email: `author-${sequence}-${Date.now()}@example.com`,
        name,
        role: 'author',
      });
      const key = await t.identity.createApiKey({ organizationId: tenant.orgId, userId: user.id });
      return { id: user.id, name, auth: { Authorization: `Bearer ${key.key}` } };
    },
  };
}

/** The ids of a list response, in order. */
export const idsOf = (body: { data: Array<{ id: string }> }): string[] => body.data.map((item) => item.id);
