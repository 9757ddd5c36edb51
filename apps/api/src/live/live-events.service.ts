import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ADMIN_ROOM, machineRoom, userRoom, type SaleEvent } from '@wv/contracts';
import { DomainEvents, type CommittedSale } from '../events/domain-events.js';
import { LiveServerService, type LiveEmit } from './live-server.service.js';
import { LiveWatchService } from './live-watch.service.js';
import { SummaryCoalescer } from './summary-coalescer.js';

/** Machine events go to the machine's room and to admins; float events to the people concerned. */
const machineRooms = (espId: string) => [machineRoom(espId), ADMIN_ROOM];

/**
 * Turns domain events, emitted after their commit in this process, into Socket.IO events
 * (docs/live-events.md, "Events"). Runs in every role: sales commit in workers, statuses in the broker.
 */
@Injectable()
export class LiveEventsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly unsubscribe: (() => void)[] = [];
  /** Status changes emitted in this turn, sent together (see statusBatch). */
  private statuses: LiveEmit<'machine.status'>[] = [];

  constructor(
    private readonly events: DomainEvents,
    private readonly live: LiveServerService,
    private readonly summaries: SummaryCoalescer,
    private readonly watch: LiveWatchService,
  ) {}

  onApplicationBootstrap(): void {
    this.summaries.onFlush((summaries) =>
      this.live.emitMany(summaries.map((s) => ({ rooms: machineRooms(s.machineId), event: 'summary', payload: s }))),
    );
    this.unsubscribe.push(
      this.events.on('sales.committed', ({ sales }) => {
        // A busy fleet's sales are mostly of machines nobody watches: neither their events nor their summaries
        // are built (docs/performance.md, "Events for watched machines").
        const watched = sales.filter((sale) => this.watch.watchesMachine(sale.espId));
        this.live.emitMany(
          watched.map((sale) => ({ rooms: machineRooms(sale.espId), event: 'sale', payload: toSaleEvent(sale) })),
        );
        for (const sale of watched) this.summaries.mark(sale.espId, sale.localDate);
      }),
      this.events.on('machine.status', ({ espId, online, lastSeen }) =>
        this.statusBatch(machineRooms(espId), { machineId: espId, online, lastSeen }),
      ),
      this.events.on('config.applied', ({ espId, version }) =>
        this.live.emit(machineRooms(espId), 'config.applied', { machineId: espId, version }),
      ),
      this.events.on('float.requested', ({ managerId, event }) =>
        this.live.emit([userRoom(managerId)], 'float.requested', event),
      ),
      this.events.on('float.updated', ({ attendantId, managerId, event }) =>
        this.live.emit([userRoom(attendantId), userRoom(managerId)], 'float.updated', event),
      ),
      this.events.on('alarm.opened', ({ alarm }) =>
        this.live.emit(machineRooms(alarm.machineId), 'alarm.opened', alarm),
      ),
      this.events.on('alarm.updated', ({ alarm }) =>
        this.live.emit(machineRooms(alarm.machineId), 'alarm.updated', alarm),
      ),
      this.events.on('device.announced', (event) => this.live.emit([ADMIN_ROOM], 'device.announced', event)),
      this.events.on('payment.updated', ({ event, espIds }) =>
        this.live.emit([...espIds.map(machineRoom), ADMIN_ROOM], 'payment.updated', event),
      ),
      this.events.on('user.removed', ({ userId }) => this.live.disconnectUser(userId)),
      this.events.on('user.password-changed', ({ userId }) => this.live.disconnectUser(userId)),
      this.events.on('user.deactivated', ({ userId }) => this.live.disconnectUser(userId)),
      this.events.on('user.device-assigned', ({ userId, espId }) => this.live.joinMachine([userId], espId)),
      this.events.on('user.device-unassigned', ({ userIds, espId }) => this.live.leaveMachine(userIds, espId)),
    );
  }

  /**
   * Machine statuses are written in batches (MachineStatusService) and emitted one event per machine in the same
   * turn: they leave as one Redis message (emitMany) instead of an adapter broadcast each. A reconnect storm of
   * 20,000 machines was 40,000 broadcasts, each decoded by every process on the adapter (docs/performance.md,
   * "Reconnect storms").
   */
  private statusBatch(rooms: string[], payload: LiveEmit<'machine.status'>['payload']): void {
    this.statuses.push({ rooms, event: 'machine.status', payload });
    if (this.statuses.length > 1) return;
    queueMicrotask(() => {
      const batch = this.statuses;
      this.statuses = [];
      this.live.emitMany(batch);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe.splice(0).forEach((off) => off());
  }
}

function toSaleEvent(sale: CommittedSale): SaleEvent {
  return {
    id: sale.id,
    machineId: sale.espId,
    kind: sale.kind,
    price: Number(sale.price),
    volume: Number(sale.volume),
    waterType: sale.waterType as SaleEvent['waterType'],
    ...(sale.cardId ? { cardId: sale.cardId } : {}),
    time: sale.soldAt.toISOString(),
  };
}
