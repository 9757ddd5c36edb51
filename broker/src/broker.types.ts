/** Public types of the embedded MQTT broker: its options, the hooks the API supplies, and what it reports. */
import type { Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { Aedes } from 'aedes';

/** Structured logging; the API adapts its own logger to this. */
export interface BrokerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Who is on the other end of a connection, decided once at CONNECT (docs/device-protocol.md, "Identity and
 * provisioning").
 */
export type DeviceIdentity =
  { kind: 'machine'; espId: string; clientId: string } | { kind: 'provisioning'; mac: string; clientId: string };

/** One sale publish, handed to `persistSales` as received: the broker does not parse sale JSON. */
export interface SaleEnvelope {
  espId: string;
  topic: string;
  payload: Buffer;
  receivedAt: Date;
}

/** A non-sale device publish, delivered after it was authorized (not durable before PUBACK). */
export type DeviceMessage =
  | {
      kind: 'status' | 'config-ack' | 'telemetry' | 'cards-ack';
      espId: string;
      clientId: string;
      topic: string;
      payload: Buffer;
      receivedAt: Date;
    }
  | { kind: 'hello'; mac: string; clientId: string; topic: string; payload: Buffer; receivedAt: Date };

export type ProvisioningVerdict = boolean | 'identifier-rejected' | 'over-limit';

/** Policy the API injects; the broker never touches the database itself. */
export interface BrokerHooks {
  /** True when `key` is the current device key of `espId`. */
  authenticateMachine(espId: string, key: string): Promise<boolean>;
  /**
   * True when `key` was verified recently for `espId` and still holds, answered without any lookup.
   * Asked instead of `authenticateMachine` while an address is refused for too many wrong keys, so
   * that machines sharing that address keep connecting. Without it such an address is refused outright.
   */
  knownMachineKey?(espId: string, key: string): boolean;
  /**
   * True when `password` is (or now becomes, on first sight) the pinned secret of this MAC and the MAC
   * may still provision; false refuses it as bad credentials. `identifier-rejected` refuses a client
   * id that must not be used for provisioning (it names a machine); `over-limit` refuses a new MAC
   * while announcements are capped or this address announced too many.
   */
  verifyProvisioningSecret(
    macTopicId: string,
    password: string,
    connection: { remoteAddress?: string },
  ): Promise<ProvisioningVerdict>;
  /** Makes a batch of sales durable; the devices get their PUBACKs only after this resolves. */
  persistSales(batch: SaleEnvelope[]): Promise<void>;
  onDeviceMessage?(message: DeviceMessage): void | Promise<void>;
  onClientConnected?(identity: DeviceIdentity): void | Promise<void>;
  onClientDisconnected?(identity: DeviceIdentity): void | Promise<void>;
}

export interface BrokerOptions {
  /** Most `/`-separated levels in any topic; protocol topics use at most 6. Default 8. */
  maxTopicLevels?: number;
  /** Largest publish payload accepted, in bytes. Default 256 KiB. */
  maxPayloadBytes?: number;
  /** Milliseconds a new connection has to send CONNECT. Default 10 000. */
  connectTimeout?: number;
  /** Largest keepalive (seconds) a client may ask for; 0 lifts the limit. Default 900. */
  keepaliveLimit?: number;
  /** Milliseconds a slow socket may block before it is dropped; also bounds `close()`. Default 15 000. */
  drainTimeout?: number;
  /** Messages Aedes routes concurrently. Default 100. */
  concurrency?: number;
  /** A sale batch is flushed once this many sales wait. Default 500. */
  saleBatchSize?: number;
  /** Milliseconds the first sale of a batch waits for company while sales keep coming. Default 10. */
  saleBatchLingerMs?: number;
  /**
   * Milliseconds it waits when it came after a quiet spell (no sale for `saleBatchLingerMs`). Default 0:
   * it leaves with the sales of its event-loop turn, waiting for no timer.
   */
  saleBatchIdleLingerMs?: number;
  /**
   * Full batches (`saleBatchSize` sales) that may be persisted at the same time. Default 4. A partial batch
   * waits until no flush is in flight: what arrives during a flush goes out in the next one, so batches grow
   * with the load and the workers get fewer, larger jobs; only when more than a full batch arrives during
   * one flush do several go out at once, so that the rate is not capped at one batch per round trip
   * (docs/performance.md).
   */
  saleFlushConcurrency?: number;
  /** Milliseconds after which a `persistSales` call counts as failed. Default 30 000. */
  persistTimeout?: number;
  /**
   * Milliseconds a live sale may wait for its flush before publishes of offline sales (backlogs) are paced down to
   * leave it the CPU (`BackfillPacer`). 0 = backlogs unpaced. Default 25.
   */
  backfillPaceMs?: number;
  /**
   * TCP connections the kernel holds for the broker before it accepts them (capped by `net.core.somaxconn`). Default
   * 8192: a reconnect storm waits in the queue instead of having its SYNs dropped and retried after seconds.
   */
  listenBacklog?: number;
  /** New connections accepted per second from one address; more are closed at once. 0 = no limit. Default 100. */
  connectionsPerSecondPerAddress?: number;
  /**
   * Wrong device keys answered per address and window; past it machine CONNECTs from that address get
   * CONNACK 5 without a key lookup until the window ends (recently verified keys still connect through
   * `knownMachineKey`). 0 = no limit. Default 20.
   */
  authFailuresPerAddress?: number;
  /** Milliseconds of that window, counted from the first failure. Default 600 000 (10 minutes). */
  authFailureWindowMs?: number;
  /** Aedes broker id (used in `$SYS` topics). Default: a random uuid. */
  id?: string;
  logger?: BrokerLogger;
}

export type RefusalReason =
  | 'bad-credentials'
  | 'identifier-rejected'
  | 'auth-unavailable'
  | 'keepalive-out-of-range'
  | 'protocol-error'
  | 'connect-timeout'
  | 'will-denied'
  | 'publish-denied'
  | 'subscribe-denied'
  | 'payload-too-large'
  | 'topic-too-deep'
  | 'persist-failed'
  | 'shutting-down'
  | 'connection-rate'
  | 'auth-failure-limit'
  | 'revoked'
  | 'provisioning-limit'
  | 'superseded';

export interface BrokerStats {
  connections: { opened: number; accepted: number; current: number };
  refusals: Record<RefusalReason, number>;
  publishes: { accepted: number };
  sales: {
    persisted: number;
    batches: number;
    failedBatches: number;
    pending: number;
    inFlight: number;
    /**
     * Live sales made durable since the broker started, by how long each waited in it: `counts[i]` waited at most
     * `boundsMs[i]` and more than the bound before it; the last count, longer than every bound. `sumMs`: their
     * waits added up. The PUBACK is written right after, so this is the broker's share of a machine's PUBACK time.
     */
    liveWait: { boundsMs: readonly number[]; counts: number[]; sumMs: number };
  };
}

export interface ConnectedClient {
  identity: DeviceIdentity;
  connectedAt: Date;
}

export interface PublishOptions {
  qos?: 0 | 1 | 2;
  retain?: boolean;
}

export interface WvBroker {
  readonly aedes: Aedes;
  /** Serves one connection (a TCP socket or any duplex stream, e.g. a WebSocket stream). */
  handle(stream: Duplex, request?: IncomingMessage): void;
  /** Listens on TCP; port 0 picks a free port. Resolves with the bound port. */
  listen(port: number, host?: string): Promise<number>;
  /** Serves MQTT over WebSocket on `path` of an existing HTTP server (needs the `ws` package). */
  attachWebSocket(httpServer: HttpServer, path: string): Promise<void>;
  /** A server-side publish: bypasses the device ACL. */
  publish(topic: string, payload: string | Uint8Array, options?: PublishOptions): Promise<void>;
  connectedClients(): ConnectedClient[];
  /**
   * Closes every session of machine `espId` on this broker (its key was rotated or the device removed),
   * including connections still being authenticated; nothing more is delivered to them. Returns how
   * many open sessions were closed.
   */
  disconnectMachine(espId: string): number;
  stats(): BrokerStats;
  /** Stops accepting, lets in-flight sales finish, closes clients; bounded by `drainTimeout`. */
  close(): Promise<void>;
}
