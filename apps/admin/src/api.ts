/** The API as the console uses it: same origin, session cookie, JSON in and out. */

export interface Problem {
  status: number;
  code: string;
  detail?: string;
  title?: string;
  errors?: { field: string; message: string }[];
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
  }

  /** A readable sentence, with the failing fields when the API listed them. */
  describe(): string {
    const fields = (this.problem.errors ?? []).map((e) => `${e.field}: ${e.message}`);
    return fields.length > 0 ? `${this.message} (${fields.join('; ')})` : this.message;
  }
}

export interface Page<T> {
  data: T[];
  /** `total_is_lower_bound`: the list stopped counting, more records match than `total` says. */
  meta: { total: number; limit: number; offset: number; hasMore: boolean; total_is_lower_bound?: true };
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  organization_id: string;
  role: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  kind: 'secret' | 'publishable';
  scopes: string[];
  allowed_origins: string[];
  site_url: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface Schedule {
  id: string;
  name: string;
  timezone: string;
}

export interface Integration {
  id: string;
  url: string;
  schedule_id: string;
  name: string;
  last_synced_at: string | null;
}

export interface ImportResult {
  synced: number;
  skipped: number;
  updated: number;
  cancelled: number;
  skipped_reasons: Record<string, number>;
}

export interface SyncRun {
  id: string;
  started_at: string;
  finished_at: string;
  start_date: string;
  end_date: string;
  status: 'succeeded' | 'failed';
  summary: ImportResult | null;
  error: { code: string; message: string } | null;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
  created_at: string;
}

export interface Delivery {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  response_status: number | null;
  error: string | null;
  created_at: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  actor: { type: 'user' | 'api_key'; id: string; name: string } | null;
  target: { type: string; id: string };
  ip: string | null;
  request_id: string | null;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const problem = (parsed ?? {}) as Partial<Problem>;
    throw new ApiError({ status: response.status, code: problem.code ?? 'error', detail: problem.detail, title: problem.title, errors: problem.errors });
  }
  return parsed as T;
}

export const org = (organizationId: string, rest: string): string => `/api/organizations/${encodeURIComponent(organizationId)}/${rest}`;

/**
 * The webhook event types the API knows, read from its own OpenAPI document (the `WebhookEventType`
 * enum), so the console never keeps a copy of the list. `*` (all events) comes first.
 */
export async function webhookEventTypes(): Promise<string[]> {
  const document = await openApiDocument();
  const names = (document.components?.schemas?.['WebhookEventType']?.enum ?? []).filter((name): name is string => typeof name === 'string');
  return ['*', ...names.filter((name) => name !== '*')];
}

type OpenApiDocument = { components?: { schemas?: Record<string, { enum?: unknown[]; properties?: Record<string, { enum?: unknown[] }> }> } };

let documentRequest: Promise<OpenApiDocument> | null = null;

/** The API's OpenAPI document, read once per page load. */
function openApiDocument(): Promise<OpenApiDocument> {
  documentRequest ??= call<OpenApiDocument>('GET', '/docs/openapi.json').catch((error: unknown) => {
    documentRequest = null;
    throw error;
  });
  return documentRequest;
}

/** The actions the audit log records, read from the API's own OpenAPI document (the entry's `action` enum). */
export async function auditActions(): Promise<string[]> {
  const document = await openApiDocument();
  return (document.components?.schemas?.['AuditEntryResponse']?.properties?.['action']?.enum ?? []).filter((name): name is string => typeof name === 'string');
}
