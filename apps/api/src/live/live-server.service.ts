import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createAdapter } from '@socket.io/redis-adapter';
import { machineRoom, userRoom, type ServerToClientEvents } from '@wv/contracts';
import type { Redis } from 'ioredis';
import type { Server as HttpServer } from 'node:http';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { channelName, createRedis, publish, subscribe } from '../redis/redis-connection.js';
import { LiveAuthService, type LiveSession } from './live-auth.service.js';
import { LiveWatchService } from './live-watch.service.js';

export const SOCKET_PATH = '/socket.io';

type LiveSocket = Socket<Record<string, never>, ServerToClientEvents, Record<string, never>, { session: LiveSession }>;
type LiveIo = Server<Record<string, never>, ServerToClientEvents, Record<string, never>, { session: LiveSession }>;

/** One event of a batch for `emitMany`. */
export interface LiveEmit<E extends keyof ServerToClientEvents = keyof ServerToClientEvents> {
  rooms: string[];
  event: E;
  payload: Parameters<ServerToClientEvents[E]>[0];
}

/**
 * The Socket.IO server (docs/live-events.md). Events are emitted in whichever process ingested the sale
 * or changed the state, so every process has a server on the Redis adapter: the api role attaches it
 * to the HTTP server and serves clients; other roles (worker, broker alone) hold a detached one whose
 * broadcasts reach the clients of the api processes through Redis.
 */
@Injectable()
export class LiveServerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Live');
  private io?: LiveIo;
  private redis: Redis[] = [];
  /** The commands connection (the adapter's `pub`), also used by `emitMany`. */
  private publisher?: Redis;
  private readonly expiryTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly auth: LiveAuthService,
    private readonly watch: LiveWatchService,
  ) {}

  /** Batches of events (`emitMany`): one Redis message each, emitted locally by every api process. */
  private get batchChannel(): string {
    return channelName(this.config, 'live-batch');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.watch.start();
    // Own clients: a subscriber connection cannot run commands, and channels are not key-prefixed. The
    // adapter does not handle a failed publish: commands wait for Redis to return instead of failing. Over a Redis
    // Cluster the adapter's classic pub/sub works as is (socket.io.github.io/socket.io-redis-adapter, "ioredis
    // cluster"): its channels reach every node; only the event batches below are sharded (docs/redis-cluster.md).
    const pub = createRedis(this.config, { connectionName: 'wv-live-pub', maxRetriesPerRequest: null });
    const sub = createRedis(this.config, { connectionName: 'wv-live-sub', maxRetriesPerRequest: null });
    for (const client of [pub, sub]) client.on('error', (e: Error) => this.logger.warn(`Redis: ${e.message}`));
    this.publisher = pub;
    this.redis = [pub, sub];
    const options: Partial<ServerOptions> = {
      path: SOCKET_PATH,
      serveClient: false,
      adapter: createAdapter(pub, sub, { key: `${this.config.redisPrefix}:socket.io` }),
      // Browsers only listen; a small buffer bounds what a client can make us hold.
      maxHttpBufferSize: 16 * 1024,
      // MQTT over WebSocket shares the HTTP server: leave upgrades of other paths alone.
      destroyUpgrade: false,
    };
    const httpServer = this.config.roles.has('api')
      ? (this.adapterHost.httpAdapter?.getHttpServer() as HttpServer | undefined)
      : undefined;
    this.io = httpServer ? new Server(httpServer, options) : new Server(options);
    if (!httpServer) return;
    this.watch.attach(this.io.of('/').adapter);
    const batches = createRedis(this.config, {
      connectionName: 'wv-live-batch',
      maxRetriesPerRequest: null,
      subscriber: true,
    });
    batches.on('error', (e: Error) => this.logger.warn(`Redis: ${e.message}`));
    this.redis.push(batches);
    await subscribe(batches, [this.batchChannel], (channel: string, raw: string) => {
      if (channel !== this.batchChannel || !this.io) return;
      const local = this.io.of('/').adapter.rooms;
      // The batch's rooms come first, on a line of their own (see emitMany): a batch for rooms nobody
      // here watches is dropped without decoding its events.
      const newline = raw.indexOf('\n');
      if (!(JSON.parse(raw.slice(0, newline)) as string[]).some((room) => local.has(room))) return;
      for (const { rooms, event, payload } of JSON.parse(raw.slice(newline + 1)) as LiveEmit[]) {
        // Most machines have nobody watching: skip the encoding of events no socket here would get.
        if (!rooms.some((room) => local.has(room))) continue;
        (this.io.local.to(rooms) as unknown as { emit(e: string, p: unknown): void }).emit(event, payload);
      }
    });
    this.io.use((socket: LiveSocket, next) => {
      this.auth.authenticate(socket.handshake.auth?.token, socket.handshake.address).then(
        async (session) => {
          socket.data.session = session;
          await this.watch.announce(session.rooms);
          next();
        },
        (error: unknown) => {
          const code = error instanceof AppError ? error.code : 'Unauthorized';
          next(
            Object.assign(new Error(error instanceof AppError ? error.message : 'Sign in to continue'), {
              data: { code },
            }),
          );
        },
      );
    });
    this.io.on('connection', (socket: LiveSocket) => this.onConnection(socket));
  }

  /** Broadcasts to the rooms, across every process; a socket in several of them gets it once. */
  emit<E extends keyof ServerToClientEvents>(
    rooms: string[],
    event: E,
    payload: Parameters<ServerToClientEvents[E]>[0],
  ): void {
    if (!this.io) return;
    const emitter = this.io.to(rooms) as unknown as { emit(e: string, p: unknown): void };
    emitter.emit(event, payload);
  }

  /**
   * Broadcasts many events in one Redis message, which every api process emits to its own sockets.
   * A busy fleet commits thousands of sales a second: one adapter broadcast per sale would cost a
   * Redis publish per sale in the worker and a decode per sale in every process. Events for rooms no socket of
   * any api process is in are not sent at all (LiveWatchService).
   */
  emitMany(all: LiveEmit[]): void {
    if (!this.io) return;
    const events = all.filter((e) => this.watch.watches(e.rooms));
    if (events.length === 0) return;
    // JSON never holds a raw newline: the first line names every room of the batch, so that a process
    // none of whose sockets is in them skips the rest (profiled: decoding every sale event of a busy
    // fleet was the api process's largest cost, docs/performance.md).
    const rooms = new Set<string>();
    for (const e of events) for (const room of e.rooms) rooms.add(room);
    if (!this.publisher) return;
    publish(this.publisher, this.batchChannel, `${JSON.stringify([...rooms])}\n${JSON.stringify(events)}`).catch(
      (error: Error) => this.logger.warn(`Live events not broadcast: ${error.message}`),
    );
  }

  /**
   * A removed user's sessions, or those of a user who changed their password, end at once in every
   * process (docs/rest-api.md, "Details"): through the Redis adapter, the other api processes close theirs too.
   */
  disconnectUser(userId: string): void {
    this.io?.in(userRoom(userId)).disconnectSockets(true);
  }

  /**
   * A machine given to users: their open sockets join its room, in every process, as a new handshake
   * would (docs/live-events.md, "Connecting").
   */
  joinMachine(userIds: string[], espId: string): void {
    if (userIds.length) this.io?.in(userIds.map(userRoom)).socketsJoin(machineRoom(espId));
  }

  /** A machine taken from users: their open sockets stop receiving its events at once. */
  leaveMachine(userIds: string[], espId: string): void {
    if (userIds.length) this.io?.in(userIds.map(userRoom)).socketsLeave(machineRoom(espId));
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.expiryTimers.clear();
    const io = this.io;
    this.io = undefined;
    if (io) {
      // Not io.close(): that would also close the HTTP server, which Nest closes itself afterwards.
      io.local.disconnectSockets(true);
      await Promise.resolve(io.of('/').adapter.close()).catch(() => undefined);
      (io.engine as { close?: () => void } | undefined)?.close?.();
    }
    await Promise.all(this.redis.map((r) => r.quit().catch(() => r.disconnect())));
  }

  private onConnection(socket: LiveSocket): void {
    const { session } = socket.data;
    void socket.join(session.rooms);
    // A token lives 20 minutes (docs/rest-api.md, "Details"); so does a socket opened with it.
    const timer = setTimeout(() => socket.disconnect(true), Math.max(0, session.expiresAt - Date.now()));
    timer.unref();
    this.expiryTimers.set(socket.id, timer);
    socket.once('disconnect', () => {
      clearTimeout(timer);
      this.expiryTimers.delete(socket.id);
    });
  }
}
