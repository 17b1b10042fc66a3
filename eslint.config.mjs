import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

export default tseslint.config(
  {
    // typed-client/program.ts is compiled by its e2e test against types generated there, not as part of the workspace.
    ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', '**/coverage/**', 'bench/**', '**/*.js', '**/*.cjs', '**/*.mjs', 'apps/api-e2e/src/openapi/typed-client/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { project: './tsconfig.base.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // The e2e suites boot the real app through its bootstrap, as main.ts does.
          allow: ['../../../api/src/bootstrap'],
          depConstraints: [
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:scheduling', onlyDependOnLibsWithTags: ['scope:shared', 'scope:identity'] },
            { sourceTag: 'scope:events', onlyDependOnLibsWithTags: ['scope:shared', 'scope:identity'] },
            { sourceTag: 'scope:blog', onlyDependOnLibsWithTags: ['scope:shared', 'scope:identity'] },
            { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:shared', 'scope:identity'] },
            {
              sourceTag: 'scope:calendar-sync',
              onlyDependOnLibsWithTags: ['scope:shared', 'scope:identity', 'scope:scheduling'],
            },
            // What an operator needs across contexts (erasure of a person's data): their public APIs only.
            {
              sourceTag: 'scope:operations',
              onlyDependOnLibsWithTags: ['scope:shared', 'scope:identity', 'scope:scheduling', 'scope:events', 'scope:webhooks'],
            },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:util'] },
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['*'] },
          ],
        },
      ],
    },
  },
  {
    // The admin console runs in the browser: its own tsconfig (DOM, ES modules).
    files: ['apps/admin/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './apps/admin/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // The domain layer is plain TypeScript: no framework, no ORM, no validation decorators.
    files: ['libs/*/src/lib/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', 'typeorm', 'class-validator', 'class-transformer'] },
            { regex: '^@almanac/(?!shared/domain$)', message: 'The domain layer may import only @almanac/shared/domain.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/testing/**/*.ts', 'apps/api-e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
