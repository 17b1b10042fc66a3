export * from './domain-error';
export * from './transition-table';
export * from './clock';
export { newId, isUuid } from './ids';
export * from './slug';
export * from './time';
export * from './secret-token';
export * from './erasure';
export * from './secret-url';
