import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { declaredScopes, SCOPES } from '@almanac/identity';
import { DomainError, KERNEL_ERROR_STATUS, registeredErrorCodes } from '@almanac/shared';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contexts, LIBS, tsFiles } from '../support/source-files';
import { createTestApp, TestApp } from '../support/test-app';

/** Every `DomainError` code written in libs/: `new DomainError('code'` and `super('code'` of its subclasses. */
function thrownCodes(): Map<string, string[]> {
  const codes = new Map<string, string[]>();
  for (const path of tsFiles(LIBS).filter((p) => !p.includes('/testing/'))) {
    const source = readFileSync(path, 'utf8');
    const patterns = [/new DomainError\(\s*'([a-z_]+)'/g];
    if (/extends DomainError\b/.test(source)) patterns.push(/super\(\s*'([a-z_]+)'/g);
    for (const pattern of patterns) {
      for (const match of source.matchAll(pattern)) codes.set(match[1]!, [...(codes.get(match[1]!) ?? []), path]);
    }
  }
  return codes;
}

@ApiExcludeController()
@Controller('probe-errors')
class UnregisteredCodeController {
  @Get()
  fail(): never {
    throw new DomainError('nobody_registered_this', 'a code no context registered');
  }
}

@Module({ controllers: [UnregisteredCodeController] })
class UnregisteredCodeModule {}

/** Error codes are owned by the contexts that throw them (issue 13): each is registered, none silently 400. */
describe('error codes owned by their contexts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extraModules: [UnregisteredCodeModule] });
  });
  afterAll(() => t.close());

  it('every DomainError code thrown in libs/ is registered with a status', () => {
    const thrown = thrownCodes();
    expect(thrown.size).toBeGreaterThanOrEqual(15);
    const registered = registeredErrorCodes();
    const missing = [...thrown.entries()].filter(([code]) => !registered.has(code)).map(([code, files]) => `${code} (${files.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it("the kernel's table holds only shared codes; each context's codes are registered by the context", () => {
    const owners = Object.fromEntries([...registeredErrorCodes()].map(([code, { owner }]) => [code, owner]));
    expect(owners).toMatchObject({
      booking_overlap: 'scheduling',
      schedule_in_use: 'scheduling',
      event_full: 'events',
      slots_below_registrations: 'events',
      sync_in_progress: 'calendar-sync',
      integration_not_configured: 'calendar-sync',
      email_taken: 'identity',
      idempotency_key_reused: 'identity',
      csrf_rejected: 'identity',
      validation_failed: 'shared',
    });
    for (const code of ['booking_overlap', 'event_full', 'sync_in_progress', 'email_taken']) expect(KERNEL_ERROR_STATUS).not.toHaveProperty(code);
  });

  it('each context declares the scopes its routes require, every scope has one owner, and nothing else is declared', () => {
    const declared = declaredScopes();
    expect([...declared.keys()].sort()).toEqual([...SCOPES].sort());
    const undeclared: string[] = [];
    for (const context of contexts()) {
      for (const path of tsFiles(join(LIBS, context))) {
        for (const match of readFileSync(path, 'utf8').matchAll(/RequireScope\('([a-z:]+)'\)/g)) {
          if (declared.get(match[1] as (typeof SCOPES)[number]) !== context) undeclared.push(`${context}: ${match[1]}`);
        }
      }
    }
    expect([...new Set(undeclared)]).toEqual([]);
  });

  it('a code nobody registered is a 500 internal (and logged), never a silent 400', async () => {
    const res = await t.raw().get('/probe-errors').expect(500);
    expect(res.body).toMatchObject({ status: 500, code: 'internal', detail: 'An internal error occurred.' });
    expect(JSON.stringify(res.body)).not.toContain('nobody_registered_this');
  });
});
