// One Jest run for the whole workspace: unit specs beside the code, e2e suites in apps/api-e2e.
// TypeScript is compiled by SWC (decorator metadata on), type-checking is `npm run typecheck`.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[/.-]/g, (c) => '\\' + c)}$`] = `<rootDir>/${target}`;
}

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/lint-fixtures/'],
  // temporal-polyfill (and temporal-utils) ship only ES modules: SWC turns them into CommonJS for Jest's module system.
  transform: {
    '^.+\\.ts$': swc,
    '/temporal-(polyfill|utils)/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!temporal-(polyfill|utils)/)'],
  moduleNameMapper,
  globalSetup: '<rootDir>/tools/testing/global-setup.ts',
  globalTeardown: '<rootDir>/tools/testing/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
