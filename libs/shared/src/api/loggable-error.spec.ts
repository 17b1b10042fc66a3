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

describe('loggableError, the rest of what it says', () => {
  it('follows the cause chain, with each cause\'s type, message and code', () => {
    const inner = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const logged = loggableError(new Error('the fetch failed', { cause: new TypeError('reading failed', { cause: inner }) }));
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'the fetch failed',
      cause: { type: 'TypeError', message: 'reading failed', cause: { type: 'Error', message: 'socket hang up', code: 'ECONNRESET' } },
    });
  });

  it('cuts a value the database quotes out of its message, and keeps the names it quotes', () => {
    const driverError = Object.assign(new Error('invalid input syntax for type uuid: "ada@example.com"'), { code: '22P02' });
    expect(loggableError(new QueryFailedError('SELECT 1', [], driverError))).toMatchObject({ message: 'invalid input syntax for type uuid: "…"' });
  });

  it("describes the error behind a copy made by pino's standard serializer (pino-http runs it first)", () => {
    const error = new QueryFailedError('UPDATE bookings SET notes = $1', ['private notes'], Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    const copy = Object.assign(Object.create({}), { type: 'QueryFailedError', message: 'deadlock detected', parameters: ['private notes'], raw: error });
    const logged = loggableError(copy);
    expect(logged).toEqual({ type: 'QueryFailedError', statement: 'UPDATE bookings', code: '40P01', message: 'deadlock detected' });
  });

  it('describes a thrown value that is not an Error by its type, and keeps what it made when handed it again', () => {
    expect(loggableError('plain text')).toEqual({ type: 'string', message: 'a string was thrown, not an Error' });
    expect(loggableError({ code: 'E_ODD', message: 'odd', secret: 'x' })).toEqual({ type: 'Object', code: 'E_ODD', message: 'odd' });
    const once = loggableError(new Error('once'));
    expect(loggableError(once)).toBe(once);
  });
});
