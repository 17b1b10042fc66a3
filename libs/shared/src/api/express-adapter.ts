import { StreamableFile, type NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { capConnectionsPerClient, type ConnectionLimits, serverTimeouts } from '../net/connection-limits';
import type { FrontDoorStep } from './http-middleware';
import { wantsEntityTag } from './conditional';
import { entityTagOf, noneMatchHits, paginationLinks } from './http-semantics';
import { PROBLEM_TYPE_BASE } from './problem';

/** Where the front door reports what it answered on its own (parser errors, a step that threw). */
export type FrontDoorLog = (fields: Record<string, unknown>, message: string) => void;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * platform-express with two shortcuts on the hot path, measured with `npm run bench -- --cpu-prof`:
 *
 * - Front-door steps (request id, access log, fixed security headers) run on the raw Node request
 *   and response before Express takes them. Inside Express the same code costs more: Express swaps
 *   the prototypes of both objects, and every middleware is one more turn of its router.
 * - A handler's JSON result is written with one `JSON.stringify` and `res.end`, instead of
 *   `res.json` → `res.send` (content-type parsing, charset rewriting, Express's own weak ETags, which are off).
 *   Here too the answer gets the HTTP semantics every route promises: the strong ETag of a `@Conditional()`
 *   route (304 for a GET whose If-None-Match names it) and the `Link` header of a page. Anything else (no body, streams, errors, a Content-Type set by
 *   the handler) still goes through Nest's own reply.
 */
export class AlmanacExpressAdapter extends ExpressAdapter {
  constructor(
    private readonly frontDoor: readonly FrontDoorStep[],
    private readonly log: FrontDoorLog = () => undefined,
    private readonly limits?: ConnectionLimits,
  ) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (this.limits && !options.httpsOptions && !options.forceCloseConnections) {
      // Node's server with the request timeouts (Nest's own takes no options), capped per client.
      const limits = this.limits;
      this.httpServer = createServer(serverTimeouts(limits), this.getInstance());
      capConnectionsPerClient(this.httpServer as Server, limits, (refused) =>
        this.log({ refused, max_connections_per_client: limits.maxConnectionsPerClient }, 'connections over the per-client cap were closed'),
      );
    } else {
      super.initHttpServer(options);
    }
    const server = this.getHttpServer() as Server;
    const app = this.getInstance() as (req: IncomingMessage, res: ServerResponse) => void;
    const steps = this.frontDoor;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      try {
        for (const step of steps) step(req, res);
        app(req, res);
      } catch (error) {
        // Nothing a request does may escape the 'request' event: it would end the process.
        this.log({ err: error }, 'front door failed');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/problem+json' });
        res.end(problemJson(500, 'internal', 'An internal error occurred.', String((req as { id?: unknown }).id ?? '')));
      }
    });
    // Requests Node's parser refuses (a control character in a header, a malformed request line,
    // headers too large) never reach Express: answer them as problems too, with a request id.
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => this.answerClientError(error, socket));
  }

  private answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const id = randomUUID();
    this.log({ request_id: id, code: error.code, status }, 'request refused by the HTTP parser');
    const body = problemJson(status, 'validation_failed', 'The request is not valid HTTP (a malformed request line or header).', id);
    const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nX-Request-Id: ${id}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
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
    const request = (response as ServerResponse & { req?: IncomingMessage }).req;
    if (request && response.statusCode === 200) {
      if (request.method === 'GET' || request.method === 'HEAD') {
        const link = paginationLinks(request.url ?? '', body);
        if (link) response.setHeader('Link', link);
      }
      if (wantsEntityTag(response) && request.method !== 'DELETE') {
        const tag = entityTagOf(json);
        response.setHeader('ETag', tag);
        if (request.method !== 'PATCH' && noneMatchHits(request.headers['if-none-match'], tag)) {
          response.statusCode = 304;
          return response.end();
        }
      }
    }
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    return response.end(json);
  }
}

function problemJson(status: number, code: string, detail: string, requestId: string): string {
  const titles: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error' };
  return JSON.stringify({ type: PROBLEM_TYPE_BASE + code, title: titles[status] ?? 'Error', status, detail, code, request_id: requestId });
}
