/**
 * The embedded MQTT broker of the device protocol (docs/device-protocol.md): Aedes with the device
 * identity and ACL, durable sales before PUBACK, and a bounded graceful shutdown. Framework-free:
 * the API supplies the policy as hooks (docs/architecture.md, "Modules and conventions").
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { carriesOfflineSales } from '@wv/contracts';
import { Aedes, type Client } from 'aedes';
import mqemitter from 'mqemitter';
import type {
  BrokerHooks,
  BrokerOptions,
  ConnectedClient,
  PublishOptions,
  SaleEnvelope,
  WvBroker,
} from './broker.types.js';
import { resolveBrokerOptions } from './broker-options.js';
import { BrokerStatsRecorder } from './broker-stats.js';
import { wireBrokerEvents } from './broker-events.js';
import { errorMessage, refuse, toBuffer, type BrokerContext } from './hooks/broker-context.js';
import { createAuthenticate, createPreConnect } from './hooks/authenticate.hook.js';
import { createAuthorizePublish } from './hooks/authorize-publish.hook.js';
import { createAuthorizeSubscribe } from './hooks/authorize-subscribe.hook.js';
import { createPublished } from './hooks/published.hook.js';
import { guardPacketSize } from './packet-size.guard.js';
import { indexedMemoryPersistence } from './retained-index.js';
import { SaleLanes } from './sale-lanes.js';
import { SALE_FLUSH } from './sale-batcher.js';
import { DEFAULT_BACKFILL_PACING } from './backfill-pacer.js';
import { ConnectionRateGuard } from './connection-rate.guard.js';
import { TurnSlicer } from './turn-slicer.js';
import { attachWebSocketTransport, type WebSocketTransport } from './websocket.transport.js';
import { coalesceWrites } from './write-coalescer.js';

/**
 * Connects released to Aedes per turn of the event loop once their keys are read (turn-slicer.ts): at a few tenths
 * of a millisecond each, a slice holds the loop for a few milliseconds. 10 rather than 25 lowered both the live
 * sales' PUBACK p99 and the fleet's own CONNACK times of a reconnect (docs/performance.md).
 */
const CONNECTS_PER_TURN = 10;

export async function createBroker(options: BrokerOptions, hooks: BrokerHooks): Promise<WvBroker> {
  const opts = resolveBrokerOptions(options);
  const { logger } = opts;
  const stats = new BrokerStatsRecorder();
  let closing = false;
  const batcher = new SaleLanes<SaleEnvelope>(
    {
      persist: (batch) => hooks.persistSales(batch),
      maxBatch: opts.saleBatchSize,
      lingerMs: opts.saleBatchLingerMs,
      idleLingerMs: opts.saleBatchIdleLingerMs,
      maxInFlight: opts.saleFlushConcurrency,
      maxPartialInFlight: SALE_FLUSH.maxPartialInFlight,
      timeoutMs: opts.persistTimeout,
      onItemPersisted: (waitedMs) => stats.saleWaited(waitedMs),
      onFlushed: ({ size, durationMs, error }) => {
        stats.batchFlushed(size, error !== undefined);
        if (error !== undefined) {
          logger.error('sale batch not persisted: its publishes get no PUBACK', {
            size,
            durationMs,
            error: errorMessage(error),
          });
        }
      },
    },
    (sale) => carriesOfflineSales(sale.payload),
    opts.backfillPaceMs > 0
      ? {
          options: { ...DEFAULT_BACKFILL_PACING, targetMs: opts.backfillPaceMs },
          weigh: (sale) => sale.payload.length,
        }
      : null,
  );
  const ctx: BrokerContext = {
    options: opts,
    hooks,
    logger,
    stats,
    batcher,
    identities: new WeakMap(),
    sessions: new Map(),
    connectOrder: new WeakMap(),
    wills: new WeakMap(),
    durableSales: new WeakSet(),
    isClosing: () => closing,
    connects: new TurnSlicer(CONNECTS_PER_TURN, (error) =>
      logger.error('connect not completed', { error: errorMessage(error) }),
    ),
  };

  // Revocation: a session of a revoked machine is closed, and so is one whose CONNECT began before the
  // revocation and completes after it (its key may have been checked just before it was revoked).
  let revocations = 0;
  const revokedAt = new Map<string, number>();
  const connectBegan = new WeakMap<Client, number>();
  const preConnect = createPreConnect(ctx);

  const aedes = await Aedes.createBroker({
    id: opts.id,
    persistence: indexedMemoryPersistence(),
    // Aedes' own emitter limits deliveries in progress to `concurrency` and queues the rest; when the queue
    // drains, every message that completes at once (no subscriber, QoS 0) starts the next one on the same
    // stack, so a backlog of a few thousand (a reconnect storm, a stalled event loop) overflowed the
    // stack and killed the process. Without the limit nothing is queued there: each message is handed to
    // its subscribers as it is published, which is what the queue did anyway, minus the recursion.
    mq: mqemitter({ concurrency: 0, matchEmptyLevels: true }),
    concurrency: opts.concurrency,
    connectTimeout: opts.connectTimeout,
    keepaliveLimit: opts.keepaliveLimit,
    drainTimeout: opts.drainTimeout,
    maxTopicLevels: opts.maxTopicLevels,
    preConnect: (client, packet, callback) => {
      connectBegan.set(client, revocations);
      preConnect(client, packet, callback);
    },
    authenticate: createAuthenticate(ctx),
    authorizePublish: createAuthorizePublish(ctx),
    authorizeSubscribe: createAuthorizeSubscribe(ctx),
    published: createPublished(ctx),
  });
  skipRoutingOfDurableSales(aedes, ctx.durableSales);
  const connected = new Map<Client, ConnectedClient>();
  wireBrokerEvents(aedes, ctx, connected);
  // After wireBrokerEvents' listener, so that the client is in `connected` when this closes it.
  aedes.on('clientReady', (client) => {
    const identity = ctx.identities.get(client);
    if (identity?.kind !== 'machine') return;
    const revoked = revokedAt.get(identity.espId);
    if (revoked !== undefined && revoked > (connectBegan.get(client) ?? 0)) closeRevoked(client, identity.espId);
  });

  function closeRevoked(client: Client, espId: string): void {
    refuse(ctx, 'revoked', 'session closed: its device key was revoked', { clientId: client.id, espId });
    client.close();
    // Nothing more may reach the device, not even a delivery Aedes has already scheduled for it.
    client.conn.destroy();
  }

  function disconnectMachine(espId: string): number {
    revokedAt.set(espId, ++revocations);
    const sessions = [...connected].filter(([, e]) => e.identity.kind === 'machine' && e.identity.espId === espId);
    for (const [client] of sessions) closeRevoked(client, espId);
    return sessions.length;
  }

  const servers = new Map<Server, Promise<void>>();
  const streams = new Set<Duplex>();
  const transports: WebSocketTransport[] = [];
  let packetGuardWarned = false;
  const connectionRate = new ConnectionRateGuard(opts.connectionsPerSecondPerAddress);

  function handle(stream: Duplex, request?: IncomingMessage): void {
    if (closing) {
      stream.destroy();
      return;
    }
    stats.connectionsOpened++;
    const address = (stream as Duplex & { remoteAddress?: string }).remoteAddress ?? request?.socket.remoteAddress;
    if (!connectionRate.admit(address)) {
      stats.refused('connection-rate');
      logger.warn('connection refused: too many new connections from one address', { address });
      stream.destroy();
      return;
    }
    streams.add(stream);
    stream.once('close', () => streams.delete(stream));
    const client = aedes.handle(stream, request);
    const guarded = guardPacketSize(client, opts.maxPacketBytes, (length) =>
      refuse(ctx, 'payload-too-large', 'packet over the size limit', { clientId: client.id ?? undefined, length }),
    );
    if (!guarded && !packetGuardWarned) {
      packetGuardWarned = true;
      logger.warn('mqtt packet-size guard unavailable (Aedes internals changed); payload limit checked after reading');
    }
  }

  function listen(port: number, host?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer((socket) => {
        // PUBACKs are tiny and latency-bound: do not let Nagle hold them back, but send a turn's packets together.
        socket.setNoDelay(true);
        coalesceWrites(socket);
        handle(socket);
      });
      server.once('error', (error: NodeJS.ErrnoException) => {
        const where = `${host ?? '*'}:${port}`;
        const message =
          error.code === 'EADDRINUSE' ? `MQTT port ${where} is already in use` : `MQTT cannot listen on ${where}`;
        reject(Object.assign(new Error(`${message}: ${error.message}`), { code: error.code }));
      });
      // A fleet reconnecting at once (a broker restart) arrives faster than one process accepts for a few seconds.
      // With Node's default queue of 511 pending connections the kernel drops the rest of the SYNs, and each
      // dropped machine retries only after TCP's backoff of 1, 3, 7, 15 s: that backoff, not the broker, made
      // the slowest CONNACKs of a storm. A longer queue (capped by the kernel's net.core.somaxconn) holds them
      // instead; each waits its turn (docs/architecture.md, "Connections").
      server.listen({ port, host, backlog: opts.listenBacklog }, () => {
        servers.set(server, new Promise((closed) => server.once('close', () => closed())));
        server.on('error', (error) => logger.error('mqtt server error', { error: error.message }));
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  async function attachWebSocket(httpServer: HttpServer, path: string): Promise<void> {
    transports.push(await attachWebSocketTransport(httpServer, path, opts.maxPacketBytes, handle));
  }

  function publish(topic: string, payload: string | Uint8Array, options: PublishOptions = {}): Promise<void> {
    if (closing) return Promise.reject(new Error('broker is closed'));
    const packet = {
      cmd: 'publish' as const,
      topic,
      payload: toBuffer(payload),
      // Every server-to-device topic of the protocol is QoS 1.
      qos: options.qos ?? 1,
      retain: options.retain ?? false,
      dup: false,
    };
    return new Promise((resolve, reject) => aedes.publish(packet, (error) => (error ? reject(error) : resolve())));
  }

  let closed: Promise<void> | null = null;
  async function shutdown(): Promise<void> {
    closing = true;
    const deadline = Date.now() + opts.drainTimeout;
    for (const server of servers.keys()) server.close();
    for (const transport of transports) transport.close();
    // Sales already taken still get their PUBACK if the database answers before the deadline.
    if (!(await beforeDeadline(batcher.drain(), deadline))) {
      logger.warn('mqtt shutdown: sale batches still unpersisted at the drain timeout; they get no PUBACK');
      batcher.abort(new Error('broker closed before the sale batch was persisted'));
    }
    // The last PUBACKs may still sit in corked socket buffers (mqtt-packet uncorks on the next tick):
    // closing the clients now would discard them.
    await flushWrites(streams, Math.min(deadline, Date.now() + 500));
    if (!(await beforeDeadline(new Promise<void>((done) => aedes.close(() => done())), deadline))) {
      logger.warn('mqtt shutdown: clients did not close by the drain timeout; destroying their sockets');
    }
    for (const stream of streams) stream.destroy();
    // With every socket destroyed the listeners close at once; the grace covers an expired deadline.
    await beforeDeadline(Promise.all(servers.values()), Math.max(deadline, Date.now() + 100));
    logger.info('mqtt broker closed');
  }

  return {
    aedes,
    handle,
    listen,
    attachWebSocket,
    publish,
    connectedClients: () => [...connected.values()],
    disconnectMachine,
    stats: () => stats.snapshot({ pending: batcher.pendingCount, inFlight: batcher.inFlightCount }),
    close: () => (closed ??= shutdown()),
  };
}

/**
 * After a sale's PUBACK, Aedes routes the PUBLISH like any other: it builds a packet, matches it against the
 * subscriptions and the offline sessions, and calls `published`. For a machine's sales topic all of that finds
 * nothing: the device ACL lets a device subscribe only to its own downstream topics and never to a wildcard, the
 * program subscribes to no device topic, and `published` ignores sales. It was a tenth of the broker's CPU at half
 * the ingest baseline (docs/performance.md). So a sale that `authorizePublish` made durable ends here: its PUBACK is
 * already written, and the next packet of its connection is read at once. Every other PUBLISH is routed as before.
 */
function skipRoutingOfDurableSales(aedes: Aedes, durableSales: WeakSet<object>): void {
  type Route = (packet: object, client: unknown, done?: (error?: Error | null) => void) => void;
  const instance = aedes as unknown as { publish: Route };
  const route: Route = instance.publish.bind(aedes);
  instance.publish = (packet, client, done) => {
    if (typeof client === 'object' && client !== null && durableSales.delete(packet)) {
      done?.(null);
      return;
    }
    route(packet, client, done);
  };
}

/** Resolves true when `work` settles before `deadline`, false when the deadline comes first. */
function beforeDeadline(work: Promise<unknown>, deadline: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    work.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}

/** Waits until every stream has handed its buffered writes to the OS, or until `until`. */
async function flushWrites(streams: Set<Duplex>, until: number): Promise<void> {
  do {
    await new Promise((resolve) => setImmediate(resolve));
    if ([...streams].every((stream) => stream.destroyed || stream.writableLength === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  } while (Date.now() < until);
}
