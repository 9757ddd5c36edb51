import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { IdempotencyService, type MoneyOutcome } from '../../src/ledger/idempotency.service.js';

type AnyFunction = (...args: any[]) => any;
type Class<T = unknown> = abstract new (...args: any[]) => T;

/** A dependency with every method a `jest.fn()` (returning undefined until a test says otherwise). */
export type Fake<T> = { -readonly [K in keyof T]: T[K] extends AnyFunction ? jest.Mock<T[K]> : T[K] };

/** A stand-in the test makes itself, for a dependency injected by token or one it wants to shape. */
export interface Provided {
  token: unknown;
  value: object;
}

export const provide = <T>(token: Class<T> | string | symbol, value: Partial<T> | object): Provided => ({
  token,
  value,
});

export interface TestService<S> {
  /** The service under test, built with the fakes. */
  sut: S;
  fakes: {
    /** The fake handed to the service for a dependency class. */
    get<T>(token: Class<T>): Fake<T>;
    /** What was provided for an injection token. */
    get<T = unknown>(token: string | symbol): T;
  };
}

/** Nest records a constructor's `@Inject(token)` parameters here (the other types come from TypeScript's metadata). */
const SELF_DECLARED_DEPS = 'self:paramtypes';

const nameOf = (token: unknown) => (typeof token === 'function' ? token.name : String(token));

function fakeOf(type: Class): object {
  const fake: Record<string, unknown> = {};
  for (let proto = type.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name in fake) continue;
      if (typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') fake[name] = jest.fn();
    }
  }
  return fake;
}

/**
 * Builds a Nest service for a unit test the way Nest's injector would, from its constructor's
 * metadata, with a typed fake of each dependency: every method of a class dependency is a
 * `jest.fn()`; a dependency injected by token (configuration, Redis) or one the test wants to shape
 * itself is passed with `provide(token, value)`. Dependencies are found by type, not by position, so
 * a reordered constructor needs no change in the tests.
 *
 *   const { sut, fakes } = createTestService(FloatService, provide(IdempotencyService, runInPlace));
 *   fakes.get(LedgerService).creditFloat.mockResolvedValue(5_000_00);
 */
export function createTestService<S>(Service: new (...args: any[]) => S, ...provided: Provided[]): TestService<S> {
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', Service) ?? [];
  const declared: { index: number; param: unknown }[] = Reflect.getMetadata(SELF_DECLARED_DEPS, Service) ?? [];
  const registry = new Map<unknown, object>(provided.map((p) => [p.token, p.value]));
  const args = types.map((type, index) => {
    let token = declared.find((d) => d.index === index)?.param ?? type;
    if (token && typeof token === 'object' && 'forwardRef' in token) token = (token.forwardRef as () => unknown)();
    if (!registry.has(token)) {
      if (typeof token !== 'function' || token === Object) {
        throw new Error(
          `${Service.name} takes parameter ${index} by a token or an interface: provide(token, value) it`,
        );
      }
      registry.set(token, fakeOf(token as Class));
    }
    return registry.get(token);
  });
  return {
    sut: new Service(...args),
    fakes: {
      get: (token: unknown) => {
        if (!registry.has(token)) throw new Error(`${Service.name} does not depend on ${nameOf(token)}`);
        return registry.get(token) as any;
      },
    },
  };
}

/** The transaction the fakes pass around: a service hands it to its repositories and the ledger untouched. */
export const TX = { testTransaction: true } as unknown as EntityManager;

/**
 * IdempotencyService without PostgreSQL, for the rules of a money call: the work runs once in TX and
 * its after-commit step follows, as for a first call. Replays, the stored answers and the rollback of
 * a refused movement are the database's part (apps/api/test/integration).
 */
export const idempotencyInPlace = provide(IdempotencyService, {
  run: async <T>(_call: unknown, work: (m: EntityManager) => Promise<MoneyOutcome<T>>): Promise<T> => {
    const outcome = await work(TX);
    outcome.afterCommit?.();
    return outcome.body;
  },
});
