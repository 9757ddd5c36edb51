import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { machineRoom } from '@wv/contracts';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { channelName, createRedis, publish, subscribe } from '../redis/redis-connection.js';
import { isTrackedRoom, WATCH_SNAPSHOT_MS, WATCH_SYNC_MS, WatchedRooms, type WatchMessage } from './watched-rooms.js';

/** How long a socket's handshake waits for Redis to take the announcement of its rooms. */
const ANNOUNCE_WAIT_MS = 1_000;

/** The rooms of one api process's sockets, as Socket.IO's adapter holds them. */
interface RoomsAdapter {
  rooms: Map<string, Set<string>>;
  on(event: 'create-room' | 'delete-room', listener: (room: string) => void): unknown;
}

/**
 * Which machines someone watches, across every process (docs/live-events.md, "Across processes"). Every api process
 * announces on the `live-watch` channel the machine and admin rooms its sockets join and leave, and repeats the whole
 * list every WATCH_SNAPSHOT_MS; every process keeps the union. A worker then builds and broadcasts a sale's events
 * only when a socket somewhere is in the machine's room or the admins' room: a fleet's sales nobody watches cost no
 * events, no Redis message and no decoding in the api processes (docs/performance.md, "Events for watched machines").
 */
@Injectable()
export class LiveWatchService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('LiveWatch');
  private readonly node = randomUUID();
  private readonly registry = new WatchedRooms();
  private publisher?: Redis;
  private subscriber?: Redis;
  private adapter?: RoomsAdapter;
  private timer?: NodeJS.Timeout;
  /** Shutting down: the sockets' leaves are not announced one by one (the last message says all of them). */
  private closing = false;
  /** Joins and leaves of this turn, in order, announced together. */
  private pending: { op: 'add' | 'del'; rooms: string[] }[] = [];

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private get channel(): string {
    return channelName(this.config, 'live-watch');
  }

  /** Subscribes, then asks the api processes for their rooms; until they answer, every room counts as watched. */
  async start(): Promise<void> {
    const pub = createRedis(this.config, { connectionName: 'wv-live-watch-pub', maxRetriesPerRequest: null });
    const sub = createRedis(this.config, {
      connectionName: 'wv-live-watch-sub',
      maxRetriesPerRequest: null,
      subscriber: true,
    });
    for (const client of [pub, sub]) client.on('error', (e: Error) => this.logger.warn(`Redis: ${e.message}`));
    this.publisher = pub;
    this.subscriber = sub;
    await subscribe(sub, [this.channel], (channel, raw) => {
      if (channel === this.channel) this.receive(raw);
    });
    this.sync(WATCH_SYNC_MS);
    // Messages are lost while the subscriber is away: after it is back, trust the registry again only once every
    // api process has repeated its list.
    let first = true;
    sub.on('ready', () => {
      if (!first) this.sync(WATCH_SNAPSHOT_MS + WATCH_SYNC_MS);
      first = false;
    });
    this.timer = setInterval(() => {
      this.registry.expire();
      if (this.adapter) this.announceAll();
    }, WATCH_SNAPSHOT_MS);
    this.timer.unref();
  }

  /** An api process: its sockets' rooms are announced from now on. */
  attach(adapter: RoomsAdapter): void {
    this.adapter = adapter;
    adapter.on('create-room', (room) => isTrackedRoom(room) && this.queue('add', room));
    adapter.on('delete-room', (room) => isTrackedRoom(room) && this.queue('del', room));
    this.announceAll();
  }

  /**
   * A socket is about to join these rooms: they are announced, and the socket is told it is connected only once
   * Redis has passed the news on to every process (or after ANNOUNCE_WAIT_MS), so that a sale committed after the
   * browser knows it is connected finds its machine watched.
   */
  async announce(rooms: readonly string[]): Promise<void> {
    const tracked = rooms.filter(isTrackedRoom);
    if (!this.adapter || tracked.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.send({ node: this.node, op: 'add', rooms: tracked }),
      new Promise((resolve) => (timer = setTimeout(resolve, ANNOUNCE_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }

  /** Whether a broadcast to these rooms could reach a socket in some api process. */
  watches(rooms: readonly string[]): boolean {
    return this.registry.watches(rooms);
  }

  /** Whether a machine's events could reach a socket (one in its room, or an admin's). */
  watchesMachine(espId: string): boolean {
    return this.registry.watchesMachine(machineRoom(espId));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    if (this.adapter && this.publisher) {
      // This process's sockets are closing: its rooms stop counting at once rather than at their expiry.
      await this.send({ node: this.node, op: 'all', rooms: [] });
    }
    this.adapter = undefined;
    await Promise.all([this.publisher, this.subscriber].map((r) => r && r.quit().catch(() => r.disconnect())));
  }

  private sync(distrustMs: number): void {
    this.registry.distrustFor(distrustMs);
    void this.send({ node: this.node, op: 'sync' });
  }

  private receive(raw: string): void {
    let message: WatchMessage;
    try {
      message = JSON.parse(raw) as WatchMessage;
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object') return;
    if (message.op === 'sync') {
      if (this.adapter) this.announceAll();
      return;
    }
    // This process's own announcements were applied when they were sent (see send).
    if (typeof message.node !== 'string' || message.node === this.node || !Array.isArray(message.rooms)) return;
    if (!['all', 'add', 'del'].includes(message.op)) return;
    this.registry.apply({ ...message, rooms: message.rooms.filter((room) => typeof room === 'string') });
  }

  private announceAll(): void {
    if (!this.adapter) return;
    const rooms = [...this.adapter.rooms.keys()].filter(isTrackedRoom);
    // Joins and leaves queued before this list are in it already.
    this.pending = [];
    void this.send({ node: this.node, op: 'all', rooms });
  }

  private queue(op: 'add' | 'del', room: string): void {
    if (this.closing) return;
    const last = this.pending.at(-1);
    if (last?.op === op) {
      last.rooms.push(room);
      return;
    }
    this.pending.push({ op, rooms: [room] });
    if (this.pending.length > 1) return;
    queueMicrotask(() => {
      const batch = this.pending;
      this.pending = [];
      for (const { op: o, rooms } of batch) void this.send({ node: this.node, op: o, rooms });
    });
  }

  /** Applied here at once, so this process never waits for its own news; published for the others. */
  private async send(message: WatchMessage): Promise<void> {
    if (message.op !== 'sync') this.registry.apply(message);
    if (!this.publisher) return;
    await publish(this.publisher, this.channel, JSON.stringify(message)).catch((error: Error) =>
      this.logger.warn(`Watched rooms not announced: ${error.message}`),
    );
  }
}
