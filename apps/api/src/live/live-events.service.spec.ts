import { describe, expect, it } from '@jest/globals';
import { ADMIN_ROOM, machineRoom } from '@wv/contracts';
import { DomainEvents } from '../events/domain-events.js';
import { LiveEventsService } from './live-events.service.js';
import type { LiveEmit, LiveServerService } from './live-server.service.js';
import type { SummaryCoalescer } from './summary-coalescer.js';

/** The Socket.IO side as LiveEventsService sees it: what it broadcasts, one entry per call. */
function recordingLive() {
  const calls: { kind: 'emit' | 'emitMany'; events: LiveEmit[] }[] = [];
  const live = {
    emit: (rooms: string[], event: LiveEmit['event'], payload: LiveEmit['payload']) =>
      calls.push({ kind: 'emit', events: [{ rooms, event, payload }] }),
    emitMany: (events: LiveEmit[]) => calls.push({ kind: 'emitMany', events }),
  } as unknown as LiveServerService;
  return { live, calls };
}

function start() {
  const events = new DomainEvents();
  const { live, calls } = recordingLive();
  const summaries = { onFlush: () => undefined, mark: () => undefined } as unknown as SummaryCoalescer;
  const service = new LiveEventsService(events, live, summaries);
  service.onApplicationBootstrap();
  return { events, calls, service };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const status = (espId: string, online: boolean) => ({ espId, online, lastSeen: '2026-11-29T08:00:00.000Z' });

describe('LiveEventsService: machine statuses', () => {
  it('sends the statuses emitted in one turn as one batch, in order, each to its machine room and admins', async () => {
    const { events, calls, service } = start();
    events.emit('machine.status', status('ESP-A', false));
    events.emit('machine.status', status('ESP-B', true));
    events.emit('machine.status', status('ESP-A', true));
    expect(calls).toHaveLength(0);
    await turn();
    expect(calls).toEqual([
      {
        kind: 'emitMany',
        events: [
          {
            rooms: [machineRoom('ESP-A'), ADMIN_ROOM],
            event: 'machine.status',
            payload: { machineId: 'ESP-A', online: false, lastSeen: '2026-11-29T08:00:00.000Z' },
          },
          {
            rooms: [machineRoom('ESP-B'), ADMIN_ROOM],
            event: 'machine.status',
            payload: { machineId: 'ESP-B', online: true, lastSeen: '2026-11-29T08:00:00.000Z' },
          },
          {
            rooms: [machineRoom('ESP-A'), ADMIN_ROOM],
            event: 'machine.status',
            payload: { machineId: 'ESP-A', online: true, lastSeen: '2026-11-29T08:00:00.000Z' },
          },
        ],
      },
    ]);
    service.onModuleDestroy();
  });

  it('starts a new batch for statuses of a later turn', async () => {
    const { events, calls, service } = start();
    events.emit('machine.status', status('ESP-A', true));
    await turn();
    events.emit('machine.status', status('ESP-B', true));
    await turn();
    expect(calls.map((c) => [c.kind, c.events.map((e) => (e.payload as { machineId: string }).machineId)])).toEqual([
      ['emitMany', ['ESP-A']],
      ['emitMany', ['ESP-B']],
    ]);
    service.onModuleDestroy();
  });
});
