import { Controller, Get, Module, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppConfig, NotFoundError } from '@almanac/shared';
import type { Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The admin console's own policy: everything from this origin only, no inline script or style, no
 * plugin, no framing, forms and fetches back to this origin.
 */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

/** Attribute-safe text (APP_URL's origin is plain ASCII, but nothing reaches HTML unescaped). */
const escapeAttribute = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The workspace root: the nearest folder above this file holding apps/admin (from apps/api/src or dist/apps/api/src). */
function workspaceRoot(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'apps', 'admin', 'static', 'index.html'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Serves the admin console (apps/admin): index.html, admin.css and favicon.svg from apps/admin/static,
 * the ES modules compiled by `tsc -p apps/admin/tsconfig.json` from dist/apps/admin. Files are read
 * once. index.html carries APP_URL's origin (`<meta name="app-origin">`): sessions are only accepted
 * from there, so a page opened at another address says where to go before anyone tries to sign in.
 */
@ApiExcludeController()
@Controller('admin')
export class AdminConsoleController {
  private readonly root = workspaceRoot(__dirname);
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly config: AppConfig) {}

  @Get()
  index(@Res() res: Response): void {
    this.send(res, 'index.html');
  }

  @Get(':file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (!/^[a-z][a-z0-9-]*\.(js|css|svg)$/.test(file)) throw new NotFoundError('File');
    this.send(res, file);
  }

  private send(res: Response, file: string): void {
    const body = this.read(file);
    if (!body) throw new NotFoundError(file.endsWith('.js') ? 'File (build the console: npm run build)' : 'File');
    res.setHeader('Content-Security-Policy', ADMIN_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Type', TYPES[file.slice(file.lastIndexOf('.') + 1)]!);
    res.status(200).end(body);
  }

  private read(file: string): Buffer | null {
    const cached = this.cache.get(file);
    if (cached) return cached;
    if (!this.root) return null;
    const path = file.endsWith('.js') ? join(this.root, 'dist', 'apps', 'admin', file) : join(this.root, 'apps', 'admin', 'static', file);
    if (!existsSync(path)) return null;
    let body = readFileSync(path);
    if (file === 'index.html') body = Buffer.from(body.toString('utf8').replace('{{APP_ORIGIN}}', escapeAttribute(this.config.appOrigin)));
    this.cache.set(file, body);
    return body;
  }
}

@Module({ controllers: [AdminConsoleController] })
export class AdminConsoleModule {}
