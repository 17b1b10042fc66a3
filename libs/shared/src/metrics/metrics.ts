import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  collectDefaultMetrics,
  Counter,
  CounterConfiguration,
  Gauge,
  GaugeConfiguration,
  Histogram,
  HistogramConfiguration,
  Registry,
} from 'prom-client';
import type { FrontDoorStep } from '../api/http-middleware';

/** The `route` label of a request no route template matched (unknown paths, static files). */
export const UNMATCHED_ROUTE = 'unmatched';

/** How long a scrape waits for the gauges read from the database before answering without them. */
export const SCRAPE_READ_TIMEOUT_MS = 1_000;

/** Request durations: the API answers most reads in a few milliseconds, so the buckets start at 1 ms. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface ScrapeReader {
  read: () => Promise<void>;
  /** Drops what the last reading set: a gauge that could not be read has no sample rather than a stale one. */
  clear: () => void;
  pending: Promise<void> | null;
}

/**
 * The application's Prometheus registry (one per application, so several apps in one process never
 * share a metric). Contexts register their own metrics through it (`gauge`, `histogram`), and gauges
 * that come from the database register a reading made when Prometheus scrapes (`readOnScrape`),
 * bounded in time, so a frozen database cannot hold a scrape.
 *
 * With `METRICS_TOKEN` unset nothing reads it: no default metrics are collected and no request is
 * timed (`frontDoorStep` is not mounted).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');
  private readonly readers: ScrapeReader[] = [];
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;

  constructor(readonly enabled: boolean) {
    if (enabled) collectDefaultMetrics({ register: this.registry });
    this.requests = this.counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
    });
    this.durations = this.histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request reaching the server to the last byte of its answer, by method and route template',
      labelNames: ['method', 'route'],
      buckets: REQUEST_BUCKETS,
    });
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return new Counter({ ...config, registers: [this.registry] });
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return new Histogram({ ...config, registers: [this.registry] });
  }

  /**
   * `read` sets gauges from the database at each scrape. It gets SCRAPE_READ_TIMEOUT_MS: past that
   * (or when it fails) the scrape answers without those gauges (`clear`), and while one reading is
   * still under way the next scrape does not start another, so a frozen database holds at most one
   * connection per reader.
   */
  readOnScrape(read: () => Promise<void>, clear: () => void): void {
    this.readers.push({ read, clear, pending: null });
  }

  /** The Prometheus text exposition of every metric, after the database readings (each time-boxed). */
  async render(): Promise<string> {
    await Promise.all(this.readers.map((reader) => this.readBounded(reader)));
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Counts and times every request from the moment it reaches the server until its answer is sent. */
  frontDoorStep(routeOf: (req: IncomingMessage) => string): FrontDoorStep {
    return (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      res.once('finish', () => {
        const method = req.method ?? 'GET';
        const route = routeOf(req);
        this.requests.inc({ method, route, status: res.statusCode });
        this.durations.observe({ method, route }, (performance.now() - started) / 1000);
      });
    };
  }

  private async readBounded(reader: ScrapeReader): Promise<void> {
    if (reader.pending) {
      // The last reading has not come back (a frozen database): answer without these gauges.
      reader.clear();
      return;
    }
    const reading = reader.read().finally(() => (reader.pending = null));
    reader.pending = reading;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SCRAPE_READ_TIMEOUT_MS)));
    try {
      if ((await Promise.race([reading, deadline])) === 'late') {
        this.logger.warn(`a database reading took more than ${SCRAPE_READ_TIMEOUT_MS} ms; answered without it`);
        reader.clear();
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'a database reading failed; answered without it');
      reader.clear();
    } finally {
      clearTimeout(timer);
    }
    // A reading that ends after its deadline must not fail the process.
    reading.catch(() => undefined);
  }
}

interface RouterLayer {
  route?: { path: unknown; _handlesMethod?: (method: string) => boolean };
  match?: (path: string) => boolean;
}

/**
 * The route template of a request, for the `route` label: the one Express matched (`req.route`,
 * e.g. `/api/v1/bookings/:id`), never the raw path. A request refused before routing (a body that
 * is not JSON, too large) is matched against the router's templates once; a path none of them
 * matches is UNMATCHED_ROUTE, so no client can add label values.
 */
export function routeTemplates(router: () => unknown): (req: IncomingMessage) => string {
  return (req) => {
    const matched = (req as IncomingMessage & { route?: { path?: unknown } }).route?.path;
    if (typeof matched === 'string') return matched;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    for (const layer of (router() as { stack?: RouterLayer[] } | undefined)?.stack ?? []) {
      const template = layer.route?.path;
      if (typeof template !== 'string' || !layer.match) continue;
      try {
        if (layer.match(path) && (layer.route?._handlesMethod?.(req.method ?? 'GET') ?? true)) return template;
      } catch {
        // A path the router cannot decode names no route.
        return UNMATCHED_ROUTE;
      }
    }
    return UNMATCHED_ROUTE;
  };
}
