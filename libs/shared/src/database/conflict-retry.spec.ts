import { QueryFailedError } from 'typeorm';
import { toProblem } from '../api/problem-details.filter';
import { CONFLICT_ATTEMPTS, isTransientConflict, retryTransientConflicts } from './conflict-retry';

/** A failure as the pg driver reports it, wrapped as TypeORM wraps it. */
function pgFailure(code: string): QueryFailedError {
  return new QueryFailedError('INSERT …', [], Object.assign(new Error('the database refused'), { code }));
}

describe('retryTransientConflicts', () => {
  it('runs the work again after a deadlock or a serialization failure, and returns its result', async () => {
    for (const code of ['40P01', '40001']) {
      let calls = 0;
      const result = await retryTransientConflicts(async () => {
        calls += 1;
        if (calls < 3) throw pgFailure(code);
        return 'done';
      });
      expect({ code, result, calls }).toEqual({ code, result: 'done', calls: 3 });
    }
  });

  it('does not run again what failed for any other reason', async () => {
    for (const failure of [pgFailure('23P01'), pgFailure('08006'), new Error('not a database error')]) {
      let calls = 0;
      await expect(
        retryTransientConflicts(async () => {
          calls += 1;
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(calls).toBe(1);
    }
  });

  it(`gives up after ${CONFLICT_ATTEMPTS} attempts, and the conflict is answered 409 write_conflict, not 500 or 503`, async () => {
    let calls = 0;
    const failure = pgFailure('40P01');
    await expect(
      retryTransientConflicts(async () => {
        calls += 1;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(CONFLICT_ATTEMPTS);
    expect(isTransientConflict(failure)).toBe(true);
    expect(toProblem(failure)).toMatchObject({ status: 409, code: 'write_conflict' });
    expect(toProblem(pgFailure('40001'))).toMatchObject({ status: 409, code: 'write_conflict' });
  });
});
