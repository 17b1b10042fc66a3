import { Controller, Get, Module, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { NotFoundError } from '@almanac/shared';
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
};

/** The workspace root: the nearest folder above this file holding apps/admin (from apps/api/src or dist/apps/api/src). */
function workspaceRoot(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'apps', 'admin', 'static', 'index.html'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Serves the admin console (apps/admin): index.html and admin.css from apps/admin/static, the ES
 * modules compiled by `tsc -p apps/admin/tsconfig.json` from dist/apps/admin. Files are read once.
 */
@ApiExcludeController()
@Controller('admin')
export class AdminConsoleController {
  private readonly root = workspaceRoot(__dirname);
  private readonly cache = new Map<string, Buffer>();

  @Get()
  index(@Res() res: Response): void {
    this.send(res, 'index.html');
  }

  @Get(':file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (!/^[a-z][a-z0-9-]*\.(js|css)$/.test(file)) throw new NotFoundError('File');
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
    const body = readFileSync(path);
    this.cache.set(file, body);
    return body;
  }
}

@Module({ controllers: [AdminConsoleController] })
export class AdminConsoleModule {}
