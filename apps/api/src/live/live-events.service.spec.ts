import { describe, expect, it } from '@jest/globals';
import { ADMIN_ROOM, machineRoom } from '@wv/contracts';
import { DomainEvents } from '../events/domain-events.js';
import { LiveEventsService } from './live-events.service.js';
import type { LiveEmit, LiveServerService } from './live-server.service.js';
import type { LiveWatchService } from './live-watch.service.js';
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

function start(watched: (espId: string) => boolean = () => true) {
  const events = new DomainEvents();
  const { live, calls } = recordingLive();
  const marked: string[] = [];
  const summaries = {
    onFlush: () => undefined,
    mark: (espId: string) => marked.push(espId),
  } as unknown as SummaryCoalescer;
  const watch = { watchesMachine: watched } as unknown as LiveWatchService;
  const service = new LiveEventsService(events, live, summaries, watch);
  service.onApplicationBootstrap();
  return { events, calls, service, marked };
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

const committed = (espId: string, id: string) => ({
  id,
  espId,
  eventId: `e-${id}`,
  kind: 'coin' as const,
  price: '50.00',
  volume: '5.000',
  waterType: 'fresh',
  cardId: null,
  soldAt: new Date('2026-11-29T08:00:00.000Z'),
  localDate: '2026-11-29',
  seq: null,
  offline: false,
  dispensed: null,
});

describe('LiveEventsService: sales', () => {
  it('builds sale events and marks summaries only for machines someone watches', () => {
    const { events, calls, service, marked } = start((espId) => espId === 'ESP-W');
    events.emit('sales.committed', {
      sales: [committed('ESP-W', '1'), committed('ESP-N', '2'), committed('ESP-W', '3')],
    });
    expect(calls).toEqual([
      {
        kind: 'emitMany',
        events: [1, 3].map((id) => ({
          rooms: [machineRoom('ESP-W'), ADMIN_ROOM],
          event: 'sale',
          payload: {
            id: String(id),
            machineId: 'ESP-W',
            kind: 'coin',
            price: 50,
            volume: 5,
            waterType: 'fresh',
            time: '2026-11-29T08:00:00.000Z',
          },
        })),
      },
    ]);
    expect(marked).toEqual(['ESP-W', 'ESP-W']);
    service.onModuleDestroy();
  });
});
