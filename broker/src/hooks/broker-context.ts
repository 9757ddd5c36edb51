/** State the Aedes handlers share; built once per broker in create-broker.ts. */
import type { Client } from 'aedes';
import type { BrokerHooks, BrokerLogger, DeviceIdentity, RefusalReason, SaleEnvelope } from '../broker.types.js';
import type { ResolvedBrokerOptions } from '../broker-options.js';
import type { BrokerStatsRecorder } from '../broker-stats.js';
import { ConnackCode, RefusalError } from '../refusal.js';
import type { SaleLanes } from '../sale-lanes.js';
import type { TurnSlicer } from '../turn-slicer.js';

export interface WillMessage {
  topic: string;
  payload: Buffer | string;
}

export interface BrokerContext {
  options: ResolvedBrokerOptions;
  hooks: BrokerHooks;
  logger: BrokerLogger;
  stats: BrokerStatsRecorder;
  batcher: SaleLanes<SaleEnvelope>;
  /** Set by `authenticate`; a client without an entry is not authenticated. */
  identities: WeakMap<Client, DeviceIdentity>;
  /** The registered connection per client id, to spot the will of a session that was taken over. */
  sessions: Map<string, Client>;
  /** CONNECT wills, seen in `preConnect` so that `authenticate` can check them against the ACL. */
  wills: WeakMap<Client, WillMessage | null>;
  /** The order in which CONNECT packets were read (`preConnect`): the newer connection owns a client id. */
  connectOrder: WeakMap<Client, number>;
  /**
   * Sales already durable and about to get their PUBACK: Aedes hands each of them to its router afterwards, which
   * create-broker.ts answers at once, since no client can subscribe to a machine's sales topic.
   */
  durableSales: WeakSet<object>;
  isClosing(): boolean;
  /** Connects whose identity is settled, released to Aedes a slice per turn (turn-slicer.ts). */
  connects: TurnSlicer;
}

/** Counts and logs one refusal, and returns the error to hand back to Aedes. */
export function refuse(
  ctx: BrokerContext,
  reason: RefusalReason,
  message: string,
  fields: Record<string, unknown> = {},
  returnCode: number = ConnackCode.NotAuthorized,
): RefusalError {
  ctx.stats.refused(reason);
  ctx.logger.warn(`mqtt refused: ${message}`, { reason, ...fields });
  return new RefusalError(reason, message, returnCode);
}

/** Calls an optional API hook without letting its failure reach Aedes or the device. */
export function callHook(ctx: BrokerContext, name: string, call: () => void | Promise<void> | undefined): void {
  const fail = (error: unknown) => ctx.logger.error(`broker hook ${name} failed`, { error: errorMessage(error) });
  try {
    Promise.resolve(call()).catch(fail);
  } catch (error) {
    fail(error);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function byteLength(payload: Buffer | Uint8Array | string): number {
  return typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength;
}

export function toBuffer(payload: Buffer | Uint8Array | string): Buffer {
  if (Buffer.isBuffer(payload)) return payload;
  return typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
}

/** For log lines: where the connection comes from (TCP socket, or the HTTP upgrade request). */
export function remoteAddressOf(client: Client): string | undefined {
  const conn = client.conn as { remoteAddress?: string };
  return conn.remoteAddress ?? client.req?.socket?.remoteAddress;
}
