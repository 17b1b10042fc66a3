import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { HttpProblem } from '../api/problem-details.filter';
import { METRICS_SCHEME } from '../api/openapi';
import { ApiProblems } from '../api/swagger';
import { AppConfig } from '../config/app-config';
import { Metrics } from './metrics';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Prometheus scrapes `GET /metrics` with `Authorization: Bearer {METRICS_TOKEN}`; without the variable the route does not exist. */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  private readonly token: Buffer | null;

  constructor(
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    this.token = config.metricsToken ? digest(config.metricsToken) : null;
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiBearerAuth(METRICS_SCHEME)
  @ApiProduces('text/plain')
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text format: process and Node.js metrics, `http_requests_total{method,route,status}`, ' +
      '`http_request_duration_seconds{method,route}` (route is the template, e.g. `/api/v1/bookings/:id`; requests no route ' +
      'matched share `route="unmatched"`), `almanac_db_pool_connections{state}` (idle, active, waiting), ' +
      '`almanac_outbox_undelivered_events`, `almanac_webhook_deliveries{status}` and `almanac_webhook_delivery_lag_seconds`. ' +
      'The gauges read from the database are left out of an answer when the database does not answer within 1 s. ' +
      'Exists only when the server runs with `METRICS_TOKEN` (404 otherwise); that token is the bearer credential (401 otherwise).',
  })
  @ApiResponse({
    status: 200,
    description: 'The metrics, as Prometheus text (version 0.0.4)',
    content: { 'text/plain': { schema: { type: 'string', example: 'http_requests_total{method="GET",route="/api/v1/bookings/:id",status="200"} 42' } } },
  })
  @ApiProblems(401, 404)
  async scrape(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    if (!this.token) throw new HttpProblem({ status: 404, code: 'not_found', detail: 'No such resource.' });
    const match = /^Bearer (\S+)$/i.exec(req.headers.authorization?.trim() ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), this.token)) {
      throw new HttpProblem({
        status: 401,
        code: 'unauthorized',
        detail: 'The metrics token is required (Authorization: Bearer {METRICS_TOKEN}).',
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
    const body = await this.metrics.render();
    res.setHeader('Content-Type', this.metrics.contentType);
    return body;
  }
}
