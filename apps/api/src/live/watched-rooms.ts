import { ADMIN_ROOM } from '@wv/contracts';

/** How often every api process repeats the whole list of the rooms its sockets are in (docs/live-events.md). */
export const WATCH_SNAPSHOT_MS = 5_000;
/** An api process not heard from for this long has stopped: its rooms no longer count. */
export const WATCH_NODE_EXPIRY_MS = 3 * WATCH_SNAPSHOT_MS;
/** After a sync request, how long the answers of the api processes may take before the registry is trusted. */
export const WATCH_SYNC_MS = 1_000;

/** What an api process says about its rooms, on the `live-watch` channel. */
export type WatchMessage =
  | { node: string; op: 'all'; rooms: string[] }
  | { node: string; op: 'add' | 'del'; rooms: string[] }
  | { node: string; op: 'sync' };

/** The rooms whose broadcasts depend on someone watching: machines and admins. User rooms carry rare events. */
export const isTrackedRoom = (room: string) => room === ADMIN_ROOM || room.startsWith('machine:');

/**
 * Which machine and admin rooms have a socket in some api process, as the api processes announce them. Until the
 * registry has heard everyone (after a start or a lost connection), every room counts as watched: events are then
 * sent as if someone watched, never dropped for someone who does.
 */
export class WatchedRooms {
  private readonly nodes = new Map<string, { rooms: Set<string>; seen: number }>();
  /** How many api processes watch each room. */
  private readonly counts = new Map<string, number>();
  private trustedFrom = Number.POSITIVE_INFINITY;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The registry is trusted `afterMs` from now (until then, everything counts as watched). */
  distrustFor(afterMs: number): void {
    this.trustedFrom = this.clock() + afterMs;
  }

  get trusted(): boolean {
    return this.clock() >= this.trustedFrom;
  }

  /** Whether a broadcast to these rooms could reach a socket. Rooms that are not tracked always could. */
  watches(rooms: readonly string[]): boolean {
    if (!this.trusted) return true;
    return rooms.some((room) => !isTrackedRoom(room) || this.counts.has(room));
  }

  /** Whether a machine's events (sent to its room and to admins) could reach a socket. */
  watchesMachine(room: string): boolean {
    return !this.trusted || this.counts.has(ADMIN_ROOM) || this.counts.has(room);
  }

  apply(message: WatchMessage): void {
    if (message.op === 'sync') return;
    const node = this.nodes.get(message.node) ?? { rooms: new Set<string>(), seen: 0 };
    this.nodes.set(message.node, node);
    node.seen = this.clock();
    const rooms = message.rooms.filter(isTrackedRoom);
    if (message.op === 'all') {
      for (const room of node.rooms) this.decrement(room);
      node.rooms = new Set(rooms);
      for (const room of node.rooms) this.increment(room);
    } else if (message.op === 'add') {
      for (const room of rooms) {
        if (node.rooms.has(room)) continue;
        node.rooms.add(room);
        this.increment(room);
      }
    } else {
      for (const room of rooms) if (node.rooms.delete(room)) this.decrement(room);
    }
  }

  /** Forgets the api processes not heard from for WATCH_NODE_EXPIRY_MS. */
  expire(): void {
    const before = this.clock() - WATCH_NODE_EXPIRY_MS;
    for (const [id, node] of this.nodes) {
      if (node.seen >= before) continue;
      for (const room of node.rooms) this.decrement(room);
      this.nodes.delete(id);
    }
  }

  private increment(room: string): void {
    this.counts.set(room, (this.counts.get(room) ?? 0) + 1);
  }

  private decrement(room: string): void {
    const count = (this.counts.get(room) ?? 0) - 1;
    if (count > 0) this.counts.set(room, count);
    else this.counts.delete(room);
  }
}
