import { afterEach, describe, expect, it } from '@jest/globals';
import { BrokerHarness, createFakeHooks } from './support/broker-harness.js';
import { ConnectionRateGuard } from '../src/connection-rate.guard.js';

describe('ConnectionRateGuard', () => {
  it('admits up to the limit per address within one second and resets the next second', () => {
    const guard = new ConnectionRateGuard(3);
    const t = 10_000;
    expect([1, 2, 3, 4].map(() => guard.admit('10.0.0.1', t))).toEqual([true, true, true, false]);
    expect(guard.admit('10.0.0.2', t + 500)).toBe(true);
    expect(guard.admit('10.0.0.1', t + 1000)).toBe(true);
  });

  it('counts any one second, not calendar seconds: a burst across a second boundary is limited alike', () => {
    const guard = new ConnectionRateGuard(2);
    expect(guard.admit('10.0.0.1', 10_999)).toBe(true);
    expect(guard.admit('10.0.0.1', 10_999)).toBe(true);
    expect(guard.admit('10.0.0.1', 11_000)).toBe(false);
    expect(guard.admit('10.0.0.1', 11_998)).toBe(false);
    expect(guard.admit('10.0.0.1', 11_999)).toBe(true);
  });

  it('does not count refused connections against the next second', () => {
    const guard = new ConnectionRateGuard(1);
    expect(guard.admit('10.0.0.1', 0)).toBe(true);
    for (let t = 100; t < 1000; t += 100) expect(guard.admit('10.0.0.1', t)).toBe(false);
    expect(guard.admit('10.0.0.1', 1000)).toBe(true);
  });

  it('forgets an address a second after its last connection, so many addresses cannot grow its memory', () => {
    const guard = new ConnectionRateGuard(100);
    const tracked = () => (guard as unknown as { admitted: Map<string, number[]> }).admitted.size;
    for (let i = 0; i < 1000; i++) expect(guard.admit(`10.0.${i >> 8}.${i & 255}`, 5_000)).toBe(true);
    expect(tracked()).toBe(1000);
    expect(guard.admit('10.9.9.9', 6_000)).toBe(true);
    expect(tracked()).toBe(1);
  });

  it('has no limit at 0 and admits connections without an address', () => {
    const guard = new ConnectionRateGuard(0);
    expect(Array.from({ length: 1000 }, () => guard.admit('10.0.0.1')).every(Boolean)).toBe(true);
    expect(new ConnectionRateGuard(1).admit(undefined)).toBe(true);
  });
});

describe('the broker’s connection rate per address', () => {
  const harness = new BrokerHarness();
  afterEach(() => harness.cleanup());

  it('closes connections beyond the limit from one address and counts them', async () => {
    const broker = await harness.start({ connectionsPerSecondPerAddress: 2 }, createFakeHooks().hooks);
    const results = await Promise.allSettled(['ESP001', 'ESP002', 'ESP003'].map((id) => harness.machine(id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(broker.stats().refusals['connection-rate']).toBe(1);
  });
});
