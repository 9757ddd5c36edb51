import { describe, expect, it } from '@jest/globals';
import { isDatabaseUnavailable, isUniqueViolation } from './pg-errors.js';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a server that went away mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a fast shutdown', { code: '57P01', message: 'terminating connection due to administrator command' }],
    ['a server starting up', { code: '57P03', message: 'the database system is starting up' }],
    ['a connection exception (class 08)', { code: '08006', message: 'connection failure' }],
    ['a TypeORM QueryFailedError', { message: 'query failed', driverError: { code: '57P01' } }],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505', message: 'duplicate key value violates unique constraint' }],
    ['a check violation', { code: '23514', message: 'new row violates check constraint' }],
    ['bad input', { code: '22P02', message: 'invalid input syntax for type numeric' }],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
  ])('is false for %s: retrying unchanged would fail the same way', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('leaves unique violations to isUniqueViolation', () => {
    expect(isUniqueViolation({ driverError: { code: '23505' } })).toBe(true);
  });
});
