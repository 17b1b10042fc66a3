export * from './test-database';
export * from './openapi-validator';
export * from './openapi-schemas';
export * from './context-test';
