import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { createTestService, provide, TX } from '../../test/support/create-test-service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DomainEvents } from '../events/domain-events.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmStatusListener } from './alarm-status.listener.js';
import { AlarmRepository } from './alarm.repository.js';
import { AlarmChanges } from './alarm.types.js';
import { CONNECTION_WORK_LINGER_MS } from '../common/keyed-batch.js';

// A connect clears the machine's offline alarm (docs/alarms.md, "offline"); with ALARMS_ENABLED=false
// nothing listens ("Configuration"). The statements run against PostgreSQL in alarm-rules.integration-spec.ts.

function listener(enabled: boolean) {
  const events = new DomainEvents();
  const { sut, fakes } = createTestService(
    AlarmStatusListener,
    provide(DomainEvents, events),
    provide(APP_CONFIG, { alarms: { enabled } } as AppConfig),
  );
  fakes
    .get(AlarmEngine)
    .run.mockImplementation(((work: (m: EntityManager, c: AlarmChanges) => Promise<unknown>) =>
      work(TX, new AlarmChanges())) as never);
  fakes.get(AlarmRepository).clearActiveMany.mockResolvedValue([]);
  sut.onApplicationBootstrap();
  const status = (espId: string, online: boolean) =>
    events.emit('machine.status', { espId, online, lastSeen: '2026-11-25T08:00:00.000Z' });
  return { sut, status, store: fakes.get(TelemetryStore), alarms: fakes.get(AlarmRepository) };
}

describe('AlarmStatusListener', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('clears the offline alarms of the machines that connected within CONNECTION_WORK_LINGER_MS in one statement', async () => {
    const { sut, status, store, alarms } = listener(true);
    status('ESP-A', true);
    status('ESP-B', false);
    status('ESP-C', true);
    await jest.advanceTimersByTimeAsync(CONNECTION_WORK_LINGER_MS * 2);
    expect(alarms.clearActiveMany).toHaveBeenCalledTimes(1);
    expect(alarms.clearActiveMany.mock.calls[0]!.slice(1, 3)).toEqual([['ESP-A', 'ESP-C'], 'offline']);
    expect([...store.noteOnline.mock.calls[0]![1].keys()]).toEqual(['ESP-A', 'ESP-C']);
    sut.onModuleDestroy();
  });

  it('does nothing when the alarm engine is off (ALARMS_ENABLED=false)', async () => {
    const { sut, status, store, alarms } = listener(false);
    status('ESP-A', true);
    await jest.advanceTimersByTimeAsync(CONNECTION_WORK_LINGER_MS * 2);
    expect(alarms.clearActiveMany).not.toHaveBeenCalled();
    expect(store.noteOnline).not.toHaveBeenCalled();
    sut.onModuleDestroy();
  });
});
