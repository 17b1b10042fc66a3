import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The workspace's `libs/` folder, which the source-reading specs walk. */
export const LIBS = join(__dirname, '../../../../libs');

/** Every TypeScript file under `dir` (specs included only when asked), recursively. */
export function tsFiles(dir: string, options: { specs?: boolean } = {}): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : tsFiles(path, options);
    if (!name.endsWith('.ts')) return [];
    return options.specs || !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The bounded contexts (and the shared kernel): the folders of `libs/`. */
export function contexts(): string[] {
  return readdirSync(LIBS);
}
