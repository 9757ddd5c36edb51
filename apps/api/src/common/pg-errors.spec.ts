import { describe, expect, it } from '@jest/globals';
import { isDatabaseUnavailable, isUniqueViolation, mustWaitForDatabase } from './pg-errors.js';

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

describe('mustWaitForDatabase', () => {
  it.each([
    ['a read-only database (a standby, default_transaction_read_only)', { code: '25006' }],
    ['a full disk', { code: '53100', message: 'could not extend file' }],
    ['too many connections', { code: '53300' }],
    ['an administrator shutdown', { code: '57P01' }],
    ['a server starting up', { code: '57P03' }],
    ['a cancelled statement', { code: '57014', message: 'canceling statement due to statement timeout' }],
    ['a connection exception', { code: '08006' }],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['a TypeORM QueryFailedError on a read-only database', { message: 'query failed', driverError: { code: '25006' } }],
  ])('is true for %s: the same work succeeds once the database is back', (_, error) => {
    expect(mustWaitForDatabase(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a numeric overflow', { code: '22003' }],
    ['a syntax error', { code: '42601' }],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(mustWaitForDatabase(error)).toBe(false);
  });
});
