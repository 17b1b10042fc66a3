import { Controller, HttpCode, Options, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { BrowserOrigins } from '../application/browser-origins';
import { allowPreflight } from './cors';

/**
 * CORS preflights of `/api/v1` (`OPTIONS`, sent by a browser before a request with an Authorization
 * header). They carry no key: an origin that some usable publishable key lists gets permission for
 * GET with `authorization`; any other gets 204 without CORS headers, which the browser reads as a
 * refusal. Not an API operation, so not in the OpenAPI document (which describes the rule on the
 * bearer scheme and on key creation).
 */
@ApiExcludeController()
@Controller('api/v1')
export class CorsPreflightController {
  constructor(private readonly origins: BrowserOrigins) {}

  @Options('{*path}')
  @HttpCode(204)
  async preflight(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    const origin = req.headers.origin;
    if (await this.origins.allowsPreflight(origin)) allowPreflight(res, origin!);
  }
}
