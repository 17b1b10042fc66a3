import { DEFAULT_LIST_COUNT_CAP, DEFAULT_SEARCH_WINDOW } from '../api/pagination';
import { TrustedProxies } from '../net/client-address';

/** Runtime configuration, read once from the environment (the variables: README.md, "Configuration"). */
export class AppConfig {
  readonly port: number;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly appUrl: string;
  readonly logLevel: string;
  readonly rateLimitPerMinute: number;
  /** Requests one client address may make to `/public/v1` in any 60 seconds, counted across instances; 0 turns it off. */
  readonly publicRateLimitPerMinute: number;
  readonly calendarAllowPrivateHosts: boolean;
  /** Seconds an API-key lookup may be served from memory; revocation is honoured within this time. */
  readonly apiKeyCacheSeconds: number;
  /** Failed sign-ins one client address may make in 15 minutes, before any password is hashed; 0 turns it off. */
  readonly loginMaxFailuresPerClient: number;
  /** Proxies whose X-Forwarded-For names the client (none by default: the socket's peer is the client). */
  readonly trustedProxies: TrustedProxies;
  /** Requests per minute to one calendar feed address (its token), and from one client to any; 0 turns each off. */
  readonly calendarFeedRateLimitPerMinute: number;
  readonly calendarFeedClientRateLimitPerMinute: number;
  /** Connections one client may hold open at once (trusted proxies exempt); 0 turns the cap off. */
  readonly maxConnectionsPerClient: number;
  /** A request's headers must arrive within this (ms); 0: no limit. */
  readonly httpHeadersTimeoutMs: number;
  /** A whole request (headers and body) must arrive within this (ms), else 408; 0: no limit. */
  readonly httpRequestTimeoutMs: number;
  /** Connections in this instance's PostgreSQL pool. */
  readonly databasePoolSize: number;
  /** A statement not answered within this many ms asks whether the database still answers: if not, its connection ends (503); also a new connection's handshake bound; 0: no bound. */
  readonly databaseQueryTimeoutMs: number;
  /** Waiting for a free connection of the pool longer than this many ms: 503; 0: no bound. */
  readonly databaseConnectTimeoutMs: number;
  /** `/health/ready` answers 503 when the database has not answered `SELECT 1` within this many ms. */
  readonly databaseReadyTimeoutMs: number;
  /** Let webhook endpoints live on loopback/private addresses (tests, local receivers). */
  readonly webhookAllowPrivateHosts: boolean;
  /** Attempts of one delivery before it is `failed`. */
  readonly webhookMaxAttempts: number;
  /** The first retry comes this many seconds after the first failure; each later one 4× later. */
  readonly webhookRetryBaseSeconds: number;
  /** How often each instance looks for events to fan out and deliveries that are due (ms). */
  readonly webhookPollMs: number;
  /** Whether this instance delivers webhooks (every instance may; switch off for API-only replicas). */
  readonly webhookDispatcher: boolean;
  /** The bearer token of `GET /metrics`; unset, the route answers 404 and no request is timed. */
  readonly metricsToken: string | undefined;
  /** Create the demo organization on the first start of an empty embedded database. */
  readonly seedDemo: boolean;
  /**
   * Where a list stops counting its matches (see `CountCap`). Part of the contract, so not read
   * from the environment: tests set a small one.
   */
  readonly listCountCap: number;
  /**
   * How many of the most recent matching posts a search considers (and ranks): a broad term never
   * ranks every post. Part of the contract, like `listCountCap`.
   */
  readonly searchWindow: number;

  constructor(values: Partial<AppConfig> = {}) {
    this.port = values.port ?? 3000;
    this.databaseUrl = values.databaseUrl;
    this.dataDir = values.dataDir ?? './.data';
    this.appUrl = (values.appUrl ?? `http://localhost:${this.port}`).replace(/\/+$/, '');
    this.logLevel = values.logLevel ?? 'info';
    this.rateLimitPerMinute = values.rateLimitPerMinute ?? 600;
    this.publicRateLimitPerMinute = values.publicRateLimitPerMinute ?? 120;
    this.calendarAllowPrivateHosts = values.calendarAllowPrivateHosts ?? false;
    this.apiKeyCacheSeconds = values.apiKeyCacheSeconds ?? 5;
    this.seedDemo = values.seedDemo ?? true;
    this.loginMaxFailuresPerClient = values.loginMaxFailuresPerClient ?? 30;
    this.trustedProxies = values.trustedProxies ?? TrustedProxies.none;
    this.maxConnectionsPerClient = values.maxConnectionsPerClient ?? 64;
    this.calendarFeedRateLimitPerMinute = values.calendarFeedRateLimitPerMinute ?? 60;
    this.calendarFeedClientRateLimitPerMinute = values.calendarFeedClientRateLimitPerMinute ?? 600;
    this.httpHeadersTimeoutMs = values.httpHeadersTimeoutMs ?? 10_000;
    this.httpRequestTimeoutMs = values.httpRequestTimeoutMs ?? 30_000;
    this.databasePoolSize = values.databasePoolSize ?? 20;
    this.databaseQueryTimeoutMs = values.databaseQueryTimeoutMs ?? 2000;
    this.databaseConnectTimeoutMs = values.databaseConnectTimeoutMs ?? 10000;
    this.databaseReadyTimeoutMs = values.databaseReadyTimeoutMs ?? 1500;
    this.webhookAllowPrivateHosts = values.webhookAllowPrivateHosts ?? false;
    this.webhookMaxAttempts = values.webhookMaxAttempts ?? 8;
    this.webhookRetryBaseSeconds = values.webhookRetryBaseSeconds ?? 30;
    this.webhookPollMs = values.webhookPollMs ?? 250;
    this.webhookDispatcher = values.webhookDispatcher ?? true;
    this.metricsToken = values.metricsToken;
    this.listCountCap = values.listCountCap ?? DEFAULT_LIST_COUNT_CAP;
    this.searchWindow = values.searchWindow ?? DEFAULT_SEARCH_WINDOW;
  }

  get appOrigin(): string {
    return new URL(this.appUrl).origin;
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
    const int = (name: string, fallback: number): number => {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      const value = Number(raw);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
      return value;
    };
    return new AppConfig({
      port: int('PORT', 3000),
      databaseUrl: env['DATABASE_URL'] || undefined,
      dataDir: env['DATA_DIR'] || undefined,
      appUrl: env['APP_URL'] || undefined,
      logLevel: env['LOG_LEVEL'] || undefined,
      rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 600),
      publicRateLimitPerMinute: int('PUBLIC_RATE_LIMIT_PER_MINUTE', 120),
      calendarAllowPrivateHosts: env['CALENDAR_ALLOW_PRIVATE_HOSTS'] === 'true',
      apiKeyCacheSeconds: int('API_KEY_CACHE_SECONDS', 5),
      loginMaxFailuresPerClient: int('LOGIN_MAX_FAILURES_PER_CLIENT', 30),
      trustedProxies: TrustedProxies.parse(env['TRUSTED_PROXIES'] ?? ''),
      maxConnectionsPerClient: int('MAX_CONNECTIONS_PER_CLIENT', 64),
      calendarFeedRateLimitPerMinute: int('CALENDAR_FEED_RATE_LIMIT_PER_MINUTE', 60),
      calendarFeedClientRateLimitPerMinute: int('CALENDAR_FEED_CLIENT_RATE_LIMIT_PER_MINUTE', 600),
      httpHeadersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_SECONDS', 10) * 1000,
      httpRequestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_SECONDS', 30) * 1000,
      databasePoolSize: Math.max(1, int('DATABASE_POOL_SIZE', 20)),
      databaseQueryTimeoutMs: int('DATABASE_QUERY_TIMEOUT_MS', 2000),
      databaseConnectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS', 10000),
      databaseReadyTimeoutMs: Math.max(1, int('DATABASE_READY_TIMEOUT_MS', 1500)),
      webhookAllowPrivateHosts: env['WEBHOOK_ALLOW_PRIVATE_HOSTS'] === 'true',
      webhookMaxAttempts: Math.max(1, int('WEBHOOK_MAX_ATTEMPTS', 8)),
      webhookRetryBaseSeconds: int('WEBHOOK_RETRY_BASE_SECONDS', 30),
      webhookPollMs: Math.max(10, int('WEBHOOK_POLL_MS', 250)),
      webhookDispatcher: env['WEBHOOK_DISPATCHER'] !== 'false',
      metricsToken: env['METRICS_TOKEN'] || undefined,
    });
  }
}
