import 'reflect-metadata';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { IdentityService } from '@almanac/identity';
import { AppConfig, Clock, ManualClock } from '@almanac/shared';
import { createTestDatabase, OpenApiSchemas, OpenApiValidator } from '@almanac/shared/testing';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createApp } from '../../../api/src/bootstrap';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type CheckedClient = Record<Method, (path: string) => request.Test>;

export interface Tenant {
  orgId: string;
  key: string;
  /** `{ Authorization: 'Bearer …' }` */
  auth: Record<string, string>;
}

export interface TestApp {
  app: INestApplication;
  server: Server;
  /** Requests whose every response is checked against the app's OpenAPI document (the test fails on drift). */
  api: CheckedClient;
  /** Unchecked requests, for raw protocol tests. */
  raw: () => ReturnType<typeof request>;
  dataSource: DataSource;
  clock: ManualClock;
  identity: IdentityService;
  document: Record<string, unknown>;
  config: AppConfig;
  /** A new organization with an API key (all scopes unless given). */
  tenant(options?: { scopes?: string[]; name?: string; userId?: string | null }): Promise<Tenant>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<ConstructorParameters<typeof AppConfig>[0]>;
  clock?: ManualClock;
  /** Extra modules composed into the real app (probe controllers for cross-cutting tests). */
  extraModules?: Array<Type<unknown> | DynamicModule>;
  /** Keep the app's JSON log lines (access log and Nest's own logs, from `info`) here instead of silencing them. */
  logs?: LogLines;
}

/** The JSON log lines an app wrote, as objects (see TestAppOptions.logs). */
export class LogLines extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  /** Everything written, as text: to look for what must never be logged. */
  text = '';

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

/**
 * Boots the real application (bootstrap.ts) on a fresh database cloned from the migrated template.
 * Call in beforeAll and close in afterAll.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = new AppConfig({
    databaseUrl: database.url,
    appUrl: 'http://localhost:3000',
    logLevel: options.logs ? 'info' : 'silent',
    seedDemo: false,
    ...options.config,
  });
  const clock = options.clock ?? new ManualClock(new Date());
  const { app, document } = await createApp({
    config,
    clock: clock as Clock,
    quiet: !options.logs,
    extraModules: options.extraModules,
    logDestination: options.logs,
  });
  // Nest buffers its logs until the app listens (createApp builds it with bufferLogs); these apps never do.
  if (options.logs) app.flushLogs();
  const server = app.getHttpServer() as Server;
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const identity = app.get(IdentityService);
  const validator = new OpenApiValidator(document as unknown as Record<string, unknown>);
  const schemas = new OpenApiSchemas(document as unknown as Record<string, unknown>);

  const checked = (method: Method) => (path: string) => {
    const test = request(server)[method](path);
    // What the test sends, to check that every body the server accepts is one the document accepts.
    let sent: unknown;
    const originalSend = test.send.bind(test);
    test.send = (data?: string | object) => {
      sent = typeof data === 'string' ? parseJson(data) : data;
      return originalSend(data);
    };
    const originalThen = test.then.bind(test);
    (test as { then: unknown }).then = (onFulfilled?: (value: request.Response) => unknown, onRejected?: (reason: unknown) => unknown) =>
      originalThen((response: request.Response) => {
        const problems = validator.check(method, path, {
          status: response.status,
          // A text answer (Prometheus, iCalendar) is checked as the string it is.
          body: /^text\//.test(String(response.headers['content-type'] ?? '')) ? response.text : response.body,
          headers: response.headers as Record<string, string>,
        });
        if (problems.length > 0) {
          throw new Error(`Response does not match the OpenAPI document:\n${problems.join('\n')}\nbody: ${JSON.stringify(response.body)}`);
        }
        const refused = response.status < 300 ? schemas.checkAcceptedRequest(method, path, sent) : [];
        if (refused.length > 0) {
          throw new Error(`Request does not match the OpenAPI document:\n${refused.join('\n')}\nrequest body: ${JSON.stringify(sent)}`);
        }
        if (response.status >= 400 && !String(response.headers['content-type']).startsWith('application/problem+json')) {
          throw new Error(`Error response ${response.status} is not application/problem+json`);
        }
        return response;
      }).then(onFulfilled, onRejected);
    return test;
  };

  let counter = 0;
  return {
    app,
    server,
    api: { get: checked('get'), post: checked('post'), put: checked('put'), patch: checked('patch'), delete: checked('delete') },
    raw: () => request(server),
    dataSource,
    clock,
    identity,
    document: document as unknown as Record<string, unknown>,
    config,
    async tenant(tenantOptions = {}) {
      counter += 1;
      const org = await identity.createOrganization(tenantOptions.name ?? `Org ${counter}`);
      const created = await identity.createApiKey({ organizationId: org.id, scopes: tenantOptions.scopes, userId: tenantOptions.userId ?? null });
      return { orgId: org.id, key: created.key, auth: { Authorization: `Bearer ${created.key}` } };
    },
    query: <T>(sql: string, params: unknown[] = []) => dataSource.query(sql, params) as Promise<T[]>,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** A body given as text: its JSON value, or undefined when it is not JSON (then nothing is checked). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
