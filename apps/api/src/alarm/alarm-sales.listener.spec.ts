import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { createTestService, provide, TX } from '../../test/support/create-test-service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DomainEvents, type CommittedSale } from '../events/domain-events.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmSalesListener, SALE_RULES_EVERY_MS } from './alarm-sales.listener.js';
import { AlarmRepository } from './alarm.repository.js';
import { AlarmChanges } from './alarm.types.js';

// The sale rules' bookkeeping (docs/alarms.md, "no_sales" and "Configuration"); the statements
// themselves run against PostgreSQL in apps/api/test/integration/alarm-rules.integration-spec.ts.

const sale = (espId: string, soldAt: string): CommittedSale => ({
  id: `${espId}-${soldAt}`,
  espId,
  eventId: `${espId}-${soldAt}`,
  kind: 'coin',
  price: '200.00',
  volume: '5.000',
  waterType: 'pure',
  cardId: null,
  soldAt: new Date(soldAt),
  localDate: '2026-11-25',
  seq: null,
  offline: false,
  dispensed: null,
});

function listener(enabled: boolean) {
  const events = new DomainEvents();
  const config = { alarms: { enabled } } as AppConfig;
  const { sut, fakes } = createTestService(
    AlarmSalesListener,
    provide(DomainEvents, events),
    provide(APP_CONFIG, config),
  );
  fakes
    .get(AlarmEngine)
    .run.mockImplementation(((work: (m: EntityManager, c: AlarmChanges) => Promise<unknown>) =>
      work(TX, new AlarmChanges())) as never);
  fakes.get(AlarmRepository).clearActiveMany.mockResolvedValue([]);
  sut.onApplicationBootstrap();
  const commit = (...sales: CommittedSale[]) => events.emit('sales.committed', { sales });
  return {
    commit,
    engine: fakes.get(AlarmEngine),
    store: fakes.get(TelemetryStore),
    alarms: fakes.get(AlarmRepository),
  };
}
/** Lets the listener's next run start and finish. */
const nextRun = () => jest.advanceTimersByTimeAsync(SALE_RULES_EVERY_MS);

describe('AlarmSalesListener', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-25T08:00:00Z') });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('clears no_sales on every sale and notes a machine’s last sale at most once a minute of sale time', async () => {
    const { commit, store, alarms } = listener(true);
    commit(sale('ESP-A', '2026-11-25T08:00:00Z'), sale('ESP-B', '2026-11-25T08:00:10Z'));
    await nextRun();
    commit(sale('ESP-A', '2026-11-25T08:00:30Z'));
    await nextRun();
    commit(sale('ESP-A', '2026-11-25T08:01:00Z'), sale('ESP-B', '2026-11-25T08:00:40Z'));
    await nextRun();

    const noted = store.noteLastSales.mock.calls.map(([, last]) =>
      Object.fromEntries([...last].map(([espId, at]) => [espId, at.toISOString()])),
    );
    expect(noted).toEqual([
      { 'ESP-A': '2026-11-25T08:00:00.000Z', 'ESP-B': '2026-11-25T08:00:10.000Z' },
      {},
      { 'ESP-A': '2026-11-25T08:01:00.000Z' },
    ]);
    expect(alarms.clearActiveMany.mock.calls.map(([, espIds, kind]) => [espIds, kind])).toEqual([
      [['ESP-A', 'ESP-B'], 'no_sales'],
      [['ESP-A'], 'no_sales'],
      [['ESP-A', 'ESP-B'], 'no_sales'],
    ]);
  });

  it('takes every sale committed since its last run in one transaction, at most one run per interval', async () => {
    const { commit, engine, alarms } = listener(true);
    commit(sale('ESP-A', '2026-11-25T08:00:00Z'));
    await jest.advanceTimersByTimeAsync(0);
    expect(engine.run).toHaveBeenCalledTimes(1);
    commit(sale('ESP-B', '2026-11-25T08:00:01Z'));
    commit(sale('ESP-C', '2026-11-25T08:00:02Z'));
    commit(sale('ESP-A', '2026-11-25T08:00:03Z'));
    await jest.advanceTimersByTimeAsync(SALE_RULES_EVERY_MS - 1);
    expect(engine.run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(engine.run).toHaveBeenCalledTimes(2);
    expect(alarms.clearActiveMany.mock.calls[1]![1]).toEqual(['ESP-B', 'ESP-C', 'ESP-A']);
  });

  it('does nothing when the alarm engine is off (ALARMS_ENABLED=false)', async () => {
    const { commit, store, alarms } = listener(false);
    commit(sale('ESP-A', '2026-11-25T08:00:00Z'));
    await nextRun();
    expect(store.noteLastSales).not.toHaveBeenCalled();
    expect(alarms.clearActiveMany).not.toHaveBeenCalled();
  });
});
