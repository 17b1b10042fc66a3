export { OperationsModule } from './lib/operations.module';
