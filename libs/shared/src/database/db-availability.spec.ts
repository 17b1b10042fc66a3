import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './db-availability';

/** A failed query as TypeORM hands it on: the pg error as `driverError`. */
const failed = (code: string, message = 'failed') => new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));

describe('isDatabaseUnavailable: 503 only for a database that cannot be reached', () => {
  it.each([
    ['08000', 'connection_exception'],
    ['08001', 'sqlclient_unable_to_establish_sqlconnection'],
    ['08003', 'connection_does_not_exist'],
    ['08004', 'sqlserver_rejected_establishment_of_sqlconnection'],
    ['08006', 'connection_failure'],
    ['57P01', 'admin_shutdown'],
    ['57P02', 'crash_shutdown'],
    ['57P03', 'cannot_connect_now'],
    ['53300', 'too_many_connections'],
  ])('%s (%s) is the database being away', (code) => {
    expect(isDatabaseUnavailable(failed(code))).toBe(true);
  });

  it.each([
    ['08P01', 'protocol_violation: a statement with more than 65,535 parameters', 'bind message has 4464 parameter formats but 0 parameters'],
    ['54000', 'program_limit_exceeded', 'target lists can have at most 1664 entries'],
    ['42601', 'syntax_error', 'syntax error at or near "x"'],
    ['23505', 'unique_violation', 'duplicate key value violates unique constraint "x"'],
    ['22P02', 'invalid_text_representation', 'invalid input syntax for type uuid'],
    ['XX000', 'internal_error', 'something broke'],
  ])('%s (%s) is a statement the database refused, not an outage', (code, _name, message) => {
    expect(isDatabaseUnavailable(failed(code, message))).toBe(false);
  });

  it('recognises the driver failing to reach or keep a connection', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('connect failed'), { code }))).toBe(true);
    }
    for (const message of ['Connection terminated unexpectedly', 'timeout exceeded when trying to connect', 'Client has encountered a connection error and is not queryable']) {
      expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    }
  });

  it('does not take programming errors or thrown non-errors for an outage', () => {
    expect(isDatabaseUnavailable(new TypeError('x is not a function'))).toBe(false);
    expect(isDatabaseUnavailable('boom')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
