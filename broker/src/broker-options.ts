/** Option defaults: safe for a public port facing thousands of small devices. */
import type { BrokerLogger, BrokerOptions } from './broker.types.js';
import { DEFAULT_BACKFILL_PACING } from './backfill-pacer.js';
import { SALE_FLUSH } from './sale-batcher.js';
import { silentLogger } from './logger.js';

export interface ResolvedBrokerOptions {
  maxTopicLevels: number;
  maxPayloadBytes: number;
  /** Largest MQTT packet read off the wire: a payload plus room for the topic and headers. */
  maxPacketBytes: number;
  connectTimeout: number;
  keepaliveLimit: number;
  drainTimeout: number;
  concurrency: number;
  saleBatchSize: number;
  saleBatchLingerMs: number;
  saleBatchIdleLingerMs: number;
  saleFlushConcurrency: number;
  persistTimeout: number;
  backfillPaceMs: number;
  listenBacklog: number;
  connectionsPerSecondPerAddress: number;
  authFailuresPerAddress: number;
  authFailureWindowMs: number;
  id: string | undefined;
  logger: BrokerLogger;
}

/** Protocol topics are under 100 bytes (ESP IDs are at most 64); CONNECT and SUBSCRIBE fit in this too. */
const PACKET_OVERHEAD_BYTES = 1024;

function positive(name: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min) throw new RangeError(`broker option ${name} must be a number ≥ ${min}`);
  return value;
}

export function resolveBrokerOptions(options: BrokerOptions = {}): ResolvedBrokerOptions {
  const maxPayloadBytes = positive('maxPayloadBytes', options.maxPayloadBytes, 256 * 1024, 1);
  return {
    // Aedes clamps to 1..100; the deepest protocol topic (…/config/ack) has 6 levels.
    maxTopicLevels: Math.min(positive('maxTopicLevels', options.maxTopicLevels, 8, 6), 100),
    maxPayloadBytes,
    maxPacketBytes: maxPayloadBytes + PACKET_OVERHEAD_BYTES,
    connectTimeout: positive('connectTimeout', options.connectTimeout, 10_000, 1),
    // Seconds. Bounds how long a silently dead device (GSM drop) holds a connection.
    keepaliveLimit: positive('keepaliveLimit', options.keepaliveLimit, 900),
    drainTimeout: positive('drainTimeout', options.drainTimeout, 15_000, 1),
    concurrency: positive('concurrency', options.concurrency, 100, 1),
    saleBatchSize: positive('saleBatchSize', options.saleBatchSize, SALE_FLUSH.maxBatch, 1),
    saleBatchLingerMs: positive('saleBatchLingerMs', options.saleBatchLingerMs, SALE_FLUSH.lingerMs),
    saleBatchIdleLingerMs: positive('saleBatchIdleLingerMs', options.saleBatchIdleLingerMs, SALE_FLUSH.idleLingerMs),
    saleFlushConcurrency: positive('saleFlushConcurrency', options.saleFlushConcurrency, SALE_FLUSH.maxInFlight, 1),
    persistTimeout: positive('persistTimeout', options.persistTimeout, 30_000),
    listenBacklog: positive('listenBacklog', options.listenBacklog, 8192, 1),
    backfillPaceMs: positive('backfillPaceMs', options.backfillPaceMs, DEFAULT_BACKFILL_PACING.targetMs),
    // 0 lifts the limit. Many machines may share a carrier's NAT address, so keep it generous.
    connectionsPerSecondPerAddress: positive(
      'connectionsPerSecondPerAddress',
      options.connectionsPerSecondPerAddress,
      100,
    ),
    authFailuresPerAddress: positive('authFailuresPerAddress', options.authFailuresPerAddress, 20),
    authFailureWindowMs: positive('authFailureWindowMs', options.authFailureWindowMs, 600_000, 1),
    id: options.id,
    logger: options.logger ?? silentLogger,
  };
}
