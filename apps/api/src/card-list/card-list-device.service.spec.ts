import { describe, expect, it } from '@jest/globals';
import { CardListDeviceService } from './card-list-device.service.js';
import type { CardListRepository } from './card-list.repository.js';
import type { CardListSignals } from './card-list-signals.js';

type State = { version: number; ackedBefore: number; stale: boolean };

/** The repository and signals as the service uses them: one table of states, the machines noted for a check. */
function harness(states: Record<string, State>, fail = false) {
  const calls: { espId: string; version: number }[][] = [];
  const checked: string[][] = [];
  const lists = {
    acknowledgeMany: async (acks: { espId: string; version: number }[]) => {
      calls.push(acks);
      if (fail) throw new Error('database unavailable');
      return new Map(acks.filter((a) => states[a.espId]).map((a) => [a.espId, states[a.espId]!]));
    },
  } as unknown as CardListRepository;
  const signals = {
    checkMachines: async (espIds: string[]) => {
      checked.push(espIds);
    },
  } as unknown as CardListSignals;
  return { service: new CardListDeviceService(lists, signals), calls, checked };
}

describe('CardListDeviceService: cards/ack', () => {
  it('records the acknowledgements of many machines in one statement, each at the version it sent last', async () => {
    const { service, calls } = harness({
      A: { version: 5, ackedBefore: 4, stale: false },
      B: { version: 5, ackedBefore: 5, stale: false },
    });
    await Promise.all([
      service.onAck('A', { version: 4 }),
      service.onAck('B', { version: 5 }),
      service.onAck('A', { version: 5 }),
    ]);
    expect(calls).toEqual([
      [
        { espId: 'A', version: 5 },
        { espId: 'B', version: 5 },
      ],
    ]);
    service.onApplicationShutdown();
  });

  it('notes for a full list the machines that went back, claim a newer version, or wait for this acknowledgement', async () => {
    const { service, checked } = harness({
      current: { version: 7, ackedBefore: 7, stale: false },
      wentBack: { version: 7, ackedBefore: 7, stale: false },
      beyond: { version: 7, ackedBefore: 7, stale: false },
      stale: { version: 7, ackedBefore: 6, stale: true },
    });
    await Promise.all([
      service.onAck('current', { version: 7 }),
      service.onAck('wentBack', { version: 3 }),
      service.onAck('beyond', { version: 9 }),
      service.onAck('stale', { version: 7 }),
      service.onAck('unknown', { version: 1 }),
    ]);
    expect(checked).toEqual([['wentBack', 'beyond', 'stale']]);
    service.onApplicationShutdown();
  });

  it('ignores an invalid payload and survives a failed batch (the machine acknowledges again when it reconnects)', async () => {
    const { service, calls } = harness({}, true);
    await expect(service.onAck('A', { version: -1 })).resolves.toBeUndefined();
    await expect(service.onAck('A', 'junk')).resolves.toBeUndefined();
    expect(calls).toEqual([]);
    await expect(service.onAck('A', { version: 2 })).resolves.toBeUndefined();
    expect(calls).toEqual([[{ espId: 'A', version: 2 }]]);
    service.onApplicationShutdown();
  });
});
