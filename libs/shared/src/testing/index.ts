export * from './test-database';
export * from './openapi-validator';
