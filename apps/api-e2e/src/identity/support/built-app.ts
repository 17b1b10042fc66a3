import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The workspace root. */
export const ROOT = resolve(__dirname, '../../../../..');
const LOCK = join(ROOT, 'dist', '.e2e-build-lock');
/** Set once per Jest run by tools/testing/global-setup.ts (workers inherit it). */
const RUN_ID = process.env['ALMANAC_TEST_RUN_ID'];
const BUILT_MARKER_PREFIX = '.e2e-built-';

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds the app exactly as `npm run build` does (tsc, incremental), once at a time across Jest
 * workers, so the suites that spawn the real server and CLI run today's code. Within one Jest run
 * (ALMANAC_TEST_RUN_ID) it builds once: a marker `dist/.e2e-built-<run id>` records the build.
 */
export async function ensureBuilt(): Promise<void> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 5 * 60_000) rmdirSync(LOCK); // left by a killed run
      } catch {
        // released meanwhile
      }
      await delay(200);
    }
  }
  try {
    const marker = RUN_ID ? join(ROOT, 'dist', BUILT_MARKER_PREFIX + RUN_ID) : undefined;
    if (marker && existsSync(marker)) return; // built earlier in this run
    try {
      await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'apps/api/tsconfig.app.json'], {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`npm run build failed:\n${stdout ?? ''}${stderr ?? ''}`);
    }
    if (marker) {
      // Earlier runs' markers are of no further use.
      for (const name of readdirSync(join(ROOT, 'dist'))) {
        if (name.startsWith(BUILT_MARKER_PREFIX)) rmSync(join(ROOT, 'dist', name), { force: true });
      }
      writeFileSync(marker, '');
    }
  } finally {
    rmdirSync(LOCK);
  }
}

export interface Running {
  child: ChildProcess;
  /** Everything the process printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once stdout matches (rejects if the process exits first or after timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

/** Runs a built entry point (`dist/...js`) the way the npm scripts do. */
export function runBuilt(entry: string, args: string[], env: Record<string, string | undefined>): Running {
  const child = spawn(process.execPath, ['-r', './tools/register-paths.js', entry, ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    listeners.forEach((l) => l());
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.on('close', (code, signal) => {
      listeners.forEach((l) => l());
      resolveExit({ code, signal });
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolveMatch, reject) => {
        const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}; stdout:\n${out}\nstderr:\n${err}`)), timeoutMs);
        const check = () => {
          const match = out.match(pattern);
          if (match) done(undefined, match);
          else if (child.exitCode !== null || child.signalCode !== null) done(new Error(`process exited before ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
        };
        const done = (error?: Error, match?: RegExpMatchArray) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolveMatch(match!);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs a built CLI command to completion. */
export async function runCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const running = runBuilt('dist/tools/cli/main.js', args, env);
  const { code } = await running.exited;
  return { code, stdout: running.stdout(), stderr: running.stderr() };
}

/** A plain HTTP request without keep-alive: status, headers and the parsed body. */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  return new Promise((resolveResponse, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers = { ...(options.headers ?? {}), ...(payload ? { 'Content-Type': 'application/json' } : {}) };
    const req = request(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolveResponse({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
