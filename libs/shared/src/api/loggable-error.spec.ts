import { QueryFailedError } from 'typeorm';
import { loggableError } from './loggable-error';

describe('loggableError', () => {
  it('keeps a failed query to its statement name and SQLSTATE, never the parameters or the full SQL', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(ada@example.com) already exists.',
    });
    const error = new QueryFailedError(
      'INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)',
      ['0192f0e0-0000-7000-8000-000000000000', 'ada@example.com', 'scrypt$secret-hash'],
      driverError,
    );
    const logged = loggableError(error);
    expect(logged).toEqual({
      type: 'QueryFailedError',
      statement: 'INSERT INTO users',
      code: '23505',
      message: 'duplicate key value violates unique constraint "users_email_key"',
    });
    expect(JSON.stringify(logged)).not.toMatch(/ada@example|secret-hash|VALUES/);
  });

  it('names the table a SELECT reads', () => {
    const error = new QueryFailedError('SELECT id, key_hash FROM api_keys WHERE key_hash = $1', ['abc'], Object.assign(new Error('boom'), { code: '57014' }));
    expect(loggableError(error)).toMatchObject({ statement: 'SELECT … FROM api_keys', code: '57014' });
  });

  it('keeps type, message and stack of other errors', () => {
    const logged = loggableError(new TypeError('nope'));
    expect(logged).toMatchObject({ type: 'TypeError', message: 'nope', stack: expect.stringContaining('TypeError: nope') });
  });
});
