export * from './fixtures';
