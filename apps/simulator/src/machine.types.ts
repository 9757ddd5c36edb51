import type { ConfigPayload, Sale } from '@wv/contracts';
import type { CardRefusal } from './card-list.js';
import type { FaultKind } from './fault.js';
import type { HealthParams, TelemetryMessage } from './machine-health.js';
import type { Random } from './prng.js';
import type { Tariffs } from './tariff.js';

export const DEFAULT_FIRMWARE = 'wv-sim/0.1.0';

/**
 * A machine that already has its id: it connects as `espId` with `deviceKey` (docs/device-protocol.md, "Identity and
 * provisioning").
 */
export interface MachineCredentials {
  espId: string;
  deviceKey: string;
  /** Card ids registered at this machine, used for its card sales. */
  cards?: readonly string[];
}

/** A machine that has no id yet: it announces its MAC and waits for the retained assignment. */
export interface ProvisioningIdentity {
  /** `AA:BB:CC:DD:EE:FF` (any separator or none). */
  macAddress: string;
  /** The password chosen at first boot; the broker pins the first one it sees for a MAC. */
  provisionPassword?: string;
  cards?: readonly string[];
}

export type MachineIdentity = MachineCredentials | ProvisioningIdentity;

export type MachineState = 'idle' | 'provisioning' | 'connecting' | 'online' | 'offline' | 'stopped';

export interface MachineOptions {
  /** `mqtt://host:port` of the broker. */
  url: string;
  identity: MachineIdentity;
  /** Card ids for card sales when the identity lists none; otherwise a pool of random UIDs. Unused with `sellFromCardList`. */
  cards?: readonly string[];
  /**
   * Card sales as firmware makes them (docs/device-protocol.md, "Card lists"): card ids are drawn from the
   * card list the machine holds, and a card not on it, blocked, past its daily limit or short of balance is
   * refused by the machine itself, online or offline. Default false: card ids from `cards`, never refused
   * (unknown cards then reach the server and are flagged there).
   */
  sellFromCardList?: boolean;
  /** Sales per second, as a 24-hour mean when `dayCurve` is on; 0 (default) sells only on `sell()`. */
  rate?: number;
  /** Shape the rate with busy mornings and evenings (default true). */
  dayCurve?: boolean;
  /** The machine's local time zone for the day curve (default Africa/Dar_es_Salaam). */
  timeZone?: string;
  /** The machine's randomness; default a fresh seeded generator. */
  random?: Random;
  /** Prices per litre until a config arrives (default cold 50, fresh 30, pure 40). */
  tariffs?: Partial<Tariffs>;
  firmware?: string;
  /** Chance, checked every `offlineCheckMs`, that the machine loses its connection for a while. */
  offlineProbability?: number;
  offlineCheckMs?: number;
  /** How long an outage lasts, drawn uniformly from [min, max] ms. */
  offlineDurationMs?: readonly [number, number];
  /** Chance per sale that an already sent sale is sent again with the same eventId. */
  duplicateProbability?: number;
  /** A backlog is sent as arrays of up to this many sales (default 50; 1 sends one sale per message). */
  backlogBatchSize?: number;
  /** Sales without a sales/ack after this long are sent again (default 60 000; 0 never). */
  resendAfterMs?: number;
  /** Sales the flash holds before the oldest is overwritten (default 100 000); the order of sale is kept. */
  outboxLimit?: number;
  /** Prefix of eventIds; default unique per boot so runs with the same seed do not collide. */
  bootId?: string;
  reconnectDelayMs?: number;
  connectTimeoutMs?: number;
  keepaliveSeconds?: number;
  /** Telemetry every this many ms while online, and once at each connect (default 0: none). */
  telemetryIntervalMs?: number;
  /** The machine's tank, chiller, membrane and coin box (machine-health.ts); defaults sized for `rate`. */
  health?: Partial<HealthParams>;
  /** The clock used for sale times, the day curve and the machine's physics. */
  now?: () => Date;
  log?: (line: string) => void;
}

export interface MachineStats {
  espId: string | null;
  macAddress: string;
  state: MachineState;
  online: boolean;
  /** Sales made by the machine. */
  generated: number;
  /** Sale transmissions (first sends, resends and duplicates). */
  published: number;
  /** Sale transmissions the broker acknowledged (PUBACK). */
  pubacked: number;
  /** Sales confirmed by sales/ack and removed from the outbox. */
  acked: number;
  /** Sales awaiting their sales/ack. */
  outbox: number;
  duplicatesSent: number;
  /** Sales sent again after a reconnect or an ack timeout. */
  republished: number;
  reconnects: number;
  /** Sales lost because the outbox was full. */
  dropped: number;
  /** Telemetry messages the broker acknowledged. */
  telemetrySent: number;
  /** Scripted faults on now. */
  faults: FaultKind[];
  configVersion: number | null;
  /** The `seq` of the last sale made (0 before any). */
  lastSeq: number;
  /** Sales made while disconnected (`offline: true`). */
  offlineSales: number;
  /** Card sales the machine refused itself (`sellFromCardList`). */
  cardsRefused: number;
  /** The version of the card list held (0: none). */
  cardListVersion: number;
  /** Cut off the network by `cutOff()` until `reconnect()`. */
  cutOff: boolean;
}

export interface MachineEvents {
  /** Connected as the machine (after provisioning, if any). */
  online: [];
  offline: [];
  /** Connected as `provision` and announced: an admin may now assign an id to this MAC. */
  waiting: [macAddress: string];
  provisioned: [credentials: MachineCredentials];
  config: [config: ConfigPayload];
  acked: [eventIds: string[]];
  /** The broker acknowledged (PUBACK) these sales: they must never be lost from now on. */
  pubacked: [eventIds: string[]];
  sale: [sale: Sale];
  /** A telemetry message the broker acknowledged. */
  telemetry: [reading: TelemetryMessage];
  /** A scripted fault began (`true`) or ended by itself or was ended (`false`). */
  fault: [kind: FaultKind, on: boolean];
  refused: [error: Error];
  /** The machine turned a card away itself (`sellFromCardList`): no sale was made. */
  cardRefused: [refusal: CardRefusal];
  /** A card list or delta was applied; the machine now holds `version` and has acknowledged it. */
  cardList: [version: number];
}
