// Global setup runs outside Jest's module registry: resolve the workspace aliases to the sources.
import { join } from 'node:path';
import { register } from 'tsconfig-paths';
import { compilerOptions } from '../../tsconfig.base.json';

register({ baseUrl: join(__dirname, '..', '..'), paths: compilerOptions.paths });
