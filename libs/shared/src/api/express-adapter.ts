import { StreamableFile, type NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FrontDoorStep } from './http-middleware';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * platform-express with two shortcuts on the hot path, measured with `npm run bench -- --cpu-prof`:
 *
 * - Front-door steps (request id, access log, fixed security headers) run on the raw Node request
 *   and response before Express takes them. Inside Express the same code costs more: Express swaps
 *   the prototypes of both objects, and every middleware is one more turn of its router.
 * - A handler's JSON result is written with one `JSON.stringify` and `res.end`, instead of
 *   `res.json` → `res.send` (content-type parsing, charset rewriting, freshness and ETag checks that
 *   never apply here: ETags are off). Anything else (no body, streams, errors, a Content-Type set by
 *   the handler) still goes through Nest's own reply.
 */
export class AlmanacExpressAdapter extends ExpressAdapter {
  constructor(private readonly frontDoor: readonly FrontDoorStep[]) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    super.initHttpServer(options);
    const server = this.getHttpServer() as Server;
    const app = this.getInstance() as (req: IncomingMessage, res: ServerResponse) => void;
    const steps = this.frontDoor;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      for (const step of steps) step(req, res);
      app(req, res);
    });
  }

  override reply(response: ServerResponse, body: unknown, statusCode?: number): unknown {
    if (
      body === null ||
      typeof body !== 'object' ||
      body instanceof StreamableFile ||
      body instanceof Error ||
      response.getHeader('Content-Type') !== undefined
    ) {
      return super.reply(response, body, statusCode);
    }
    if (statusCode) response.statusCode = statusCode;
    const json = JSON.stringify(body);
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    return response.end(json);
  }
}
